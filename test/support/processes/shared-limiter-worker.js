// A worker thread of the shared buckets' and smoother's tests: runs phases of checks at a fixed
// time each, all threads of a phase at once, against the host memory it was given, and reports
// every answer of each phase.
require('tsx/cjs');
const { parentPort, workerData } = require('node:worker_threads');
const { SharedCounterStore } = require('../../../services/limiter/lib/shared/shared-counter-store');
const { SharedTokenBuckets } = require('../../../services/limiter/lib/shared/shared-token-buckets');
const { SharedSmoother } = require('../../../services/limiter/lib/shared/shared-smoother');

const { buffers, startLine, kind, counter, phases, capacity, windowMs, spec, rate } = workerData;
const store = new SharedCounterStore(buffers);
const buckets = new SharedTokenBuckets(store);
const smoother = new SharedSmoother(store);
const start = new Int32Array(startLine);

function check(now) {
  if (kind === 'bucket') return buckets.take(counter, capacity, windowMs, now);
  return smoother.allowance(counter, spec, rate, windowMs, now);
}

parentPort.postMessage({ ready: true });
for (let phase = 0; phase < phases.length; phase++) {
  // Spin rather than sleep: woken one by one, the threads would start microseconds apart and
  // barely overlap.
  while (Atomics.load(start, 0) <= phase);
  const answers = [];
  for (let i = 0; i < phases[phase].attempts; i++) answers.push(check(phases[phase].now));
  parentPort.postMessage({ phase, answers });
}
void store.close();
