// Preloaded (-r) into the gw nodes of bench:proxy-cost: on SIGUSR2 prints the bytes allocated in
// V8's young generation since the start (`young-gen allocated: <bytes>`), from the heap
// statistics V8's GC profiler records before and after each collection. Allocation per request
// barely moves with the load of a busy machine, unlike CPU time.
'use strict';
const v8 = require('node:v8');

const newSpaceUsed = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_used_size;
const usedIn = (stats) => stats.heapSpaceStatistics.find((space) => space.spaceName === 'new_space').spaceUsedSize;
let profiler = new v8.GCProfiler();
profiler.start();
let total = 0;
let afterLast = newSpaceUsed();

process.on('SIGUSR2', () => {
  const { statistics } = profiler.stop();
  profiler = new v8.GCProfiler();
  profiler.start();
  for (const gc of statistics) {
    total += usedIn(gc.beforeGC) - afterLast;
    afterLast = usedIn(gc.afterGC);
  }
  const now = newSpaceUsed();
  total += now - afterLast;
  afterLast = now;
  process.stdout.write(`young-gen allocated: ${total}\n`);
});
