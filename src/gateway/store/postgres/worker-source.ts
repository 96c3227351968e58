/**
 * The thread that owns the PostgreSQL connections: the store's one query connection and a LISTEN connection.
 * Plain CommonJS, so the thread starts without the TypeScript loader the gateway itself runs under.
 *
 * Requests arrive on `workerData.port` as `{id, steps:[{sql, params?, guard?}]}`; the steps run in order on the query
 * connection and the answer `{id, results}` or `{id, error}` is posted back on the same port, then the shared flag is
 * raised so the waiting thread wakes (it reads the answer with receiveMessageOnPort). A step with `guard` runs inside its
 * own savepoint when a transaction is open, so a failing insert leaves the transaction usable, as it would in SQLite.
 * Notifications on `workerData.channel` go to the parent as `{notify}`; `{listening}` follows every (re)connect of LISTEN.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.driver);
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const parse = (v) => (v === null ? null : Number(v));
pg.types.setTypeParser(20, parse);
pg.types.setTypeParser(1700, parse);

let client = null;
let connecting = null;
let inTransaction = false;
let stopping = false;

function connect() {
  if (client) return Promise.resolve(client);
  if (connecting) return connecting;
  const c = new pg.Client({ connectionString: workerData.url, application_name: 'askdock' });
  c.on('error', () => { if (client === c) client = null; });
  connecting = c.connect().then(async () => {
    await c.query(workerData.sessionSql);
    client = c;
    connecting = null;
    return c;
  }, (err) => { connecting = null; throw err; });
  return connecting;
}

async function runSteps(steps) {
  const c = await connect();
  const results = [];
  for (const step of steps) {
    const guard = step.guard && inTransaction;
    if (guard) await c.query('SAVEPOINT askdock_stmt');
    try {
      const r = step.params ? await c.query(step.sql, step.params) : await c.query(step.sql);
      const last = Array.isArray(r) ? r[r.length - 1] : r;
      results.push({ rows: last.rows, rowCount: last.rowCount, command: last.command });
    } catch (err) {
      if (guard) await c.query('ROLLBACK TO SAVEPOINT askdock_stmt; RELEASE SAVEPOINT askdock_stmt');
      throw err;
    }
    if (guard) await c.query('RELEASE SAVEPOINT askdock_stmt');
  }
  return results;
}

let queue = Promise.resolve();
port.on('message', (msg) => {
  queue = queue.then(async () => {
    let answer;
    try {
      const results = await runSteps(msg.steps);
      if (msg.tx !== undefined) inTransaction = msg.tx;
      answer = { id: msg.id, results };
    } catch (err) {
      // A connection that broke mid-transaction took the transaction with it.
      if (!client) inTransaction = false;
      else if (msg.tx === false) inTransaction = false;
      answer = { id: msg.id, error: { message: String((err && err.message) || err), code: err && err.code } };
    }
    port.postMessage(answer);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
});

let listener = null;
let listenDelay = 100;
function listen() {
  if (stopping || !workerData.channel) return;
  const c = new pg.Client({ connectionString: workerData.url, application_name: 'askdock-listen' });
  let failed = false;
  const retry = () => {
    if (failed) return;
    failed = true;
    if (listener === c) listener = null;
    c.end().catch(() => {});
    if (stopping) return;
    setTimeout(listen, listenDelay);
    listenDelay = Math.min(listenDelay * 2, 2000);
  };
  c.on('error', retry);
  c.on('end', retry);
  c.on('notification', (n) => parentPort.postMessage({ notify: n.payload }));
  c.connect()
    .then(() => c.query('LISTEN ' + workerData.channel))
    .then(() => {
      listener = c;
      listenDelay = 100;
      parentPort.postMessage({ listening: true });
    })
    .catch(retry);
}
listen();

parentPort.on('message', (m) => {
  if (m !== 'close') return;
  stopping = true;
  queue.then(async () => {
    const ends = [];
    if (client) ends.push(client.end().catch(() => {}));
    if (listener) ends.push(listener.end().catch(() => {}));
    await Promise.all(ends);
    Atomics.store(flag, 1, 1);
    Atomics.notify(flag, 1);
    port.close();
    parentPort.close();
  });
});
`;
