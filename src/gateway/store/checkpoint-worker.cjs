// The checkpoint thread of checkpointer.ts. Plain CommonJS, so the thread starts without the TypeScript loader the
// gateway runs under (Node 20 workers do not inherit it), and it ships as is in the package's src/.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const closed = new Int32Array(workerData.closed);
let db;
let timer;
const letGo = () => {
  clearInterval(timer);
  if (db && db.open) db.close();
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
};
parentPort.on('message', () => {
  letGo();
  parentPort.close();
});
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file);
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = ' + workerData.synchronous);
} catch (err) {
  letGo();
  throw err;
}
timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    letGo();
    parentPort.postMessage({ failed: String((err && err.message) || err) });
  }
}, workerData.everyMs);
