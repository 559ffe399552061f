// A worker thread of the shared counter store's tests: waits at the start line with its siblings,
// then runs its share of checks against the buffers it was given and reports what it was allowed.
require('tsx/cjs');
const { parentPort, workerData } = require('node:worker_threads');
const { SharedCounterStore } = require('../../../services/limiter/lib/shared/shared-counter-store');

const { buffers, startLine, algorithm, counters, attempts, limit, windowMs, sweepEvery } = workerData;
const store = new SharedCounterStore(buffers);
const start = new Int32Array(startLine);

function check(counter, now) {
  if (algorithm === 'sliding log') return store.slidingLog(counter, limit, windowMs, now, false).allowed;
  if (algorithm === 'sentinel') return store.slidingLog(counter, limit, windowMs, now, true).allowed;
  if (algorithm === 'fixed window') return store.fixedWindow(counter, limit, windowMs, now).allowed;
  return store.quota(counter, limit, windowMs, now).allowed;
}

parentPort.postMessage({ ready: true });
// Spin rather than sleep: woken one by one, the threads would start microseconds apart and
// barely overlap.
while (Atomics.load(start, 0) === 0);
let allowed = 0;
const cpuUsage = (previous) => (process.threadCpuUsage ? process.threadCpuUsage(previous) : process.cpuUsage(previous));
const began = cpuUsage();
for (let i = 0; i < attempts; i++) {
  if (sweepEvery && i % sweepEvery === 0) store.sweep();
  if (check(counters[i % counters.length], Date.now())) allowed++;
}
const cpu = cpuUsage(began);
store.close().then(() => parentPort.postMessage({ allowed, cpuMicros: cpu.user + cpu.system }));
