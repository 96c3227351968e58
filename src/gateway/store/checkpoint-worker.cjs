// The checkpoint thread of checkpointer.ts. Plain CommonJS, so the thread starts without the TypeScript loader the
// gateway runs under (Node 20 workers do not inherit it), and it ships as is in the package's src/.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
// Slots: 0 set once the connection is closed; 1 set while the gateway holds checkpoints; 2 set while one runs.
const control = new Int32Array(workerData.control);
let db;
let timer;
const letGo = () => {
  clearInterval(timer);
  if (db && db.open) db.close();
  Atomics.store(control, 0, 1);
  Atomics.notify(control, 0);
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
const checkpoint = () => {
  // Running is marked before the hold is read: a hold set after that mark waits for this checkpoint to end.
  Atomics.store(control, 2, 1);
  try {
    if (Atomics.load(control, 1) === 0) db.pragma('wal_checkpoint(PASSIVE)');
  } finally {
    Atomics.store(control, 2, 0);
    Atomics.notify(control, 2);
  }
};
timer = setInterval(() => {
  try {
    checkpoint();
  } catch (err) {
    letGo();
    parentPort.postMessage({ failed: String((err && err.message) || err) });
  }
}, workerData.everyMs);
