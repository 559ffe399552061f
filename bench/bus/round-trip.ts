/**
 * The round trip of a trivial action call from the main thread to a worker thread's broker: over
 * the host transporter (lib/bus/host-transporter.ts), and over NATS when GW_TEST_NATS (or
 * nats://127.0.0.1:4222) answers. Calls go one at a time; prints the median and the 99th
 * percentile in microseconds.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ServiceBroker } from 'moleculer';
import { HostTransporter } from '../../lib/bus/host-transporter';
import { median } from '../support';

const WORKER = join(__dirname, '..', '..', 'test', 'support', 'processes', 'host-bus-worker.js');
const CALLS = 2000;
const WARM_UP = 200;

async function roundTrips(
  name: string,
  transporter: () => ServiceBroker['options']['transporter'],
  workerData: object,
) {
  const main = new ServiceBroker({ nodeID: `bench-${name}`, transporter: transporter(), logger: false });
  await main.start();
  const worker = new Worker(WORKER, { workerData: { nodeID: `bench-${name}.w0`, ...workerData } });
  try {
    await once(worker, 'message');
    await main.waitForServices('echo', 10_000, 20);
    for (let i = 0; i < WARM_UP; i++) await main.call('echo.echo', { i });
    const micros: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const start = process.hrtime.bigint();
      await main.call('echo.echo', { i });
      micros.push(Number(process.hrtime.bigint() - start) / 1000);
    }
    const p99 = [...micros].sort((a, b) => a - b)[Math.floor(CALLS * 0.99)];
    console.log(`${name}: median ${median(micros).toFixed(0)} µs, p99 ${p99.toFixed(0)} µs over ${CALLS} calls`);
  } finally {
    worker.postMessage('stop');
    await once(worker, 'exit');
    await main.stop();
  }
}

async function main(): Promise<void> {
  const channel = `gw-host:bench-${process.pid}`;
  await roundTrips('host', () => new HostTransporter({ channel }), { channel });
  const nats = process.env.GW_TEST_NATS ?? 'nats://127.0.0.1:4222';
  await roundTrips('nats', () => nats, { nats });
}

main().catch((err) => {
  console.error(`round-trip failed: ${(err as Error).message}`);
  process.exitCode = 1;
});
