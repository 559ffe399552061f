/**
 * `npm run bench:streams`: an `http_server` input → `http_server` output (SSE) stream with N
 * consumers, end to end through the gateway port: messages per second from the first POST to
 * the last event read, the p99 delivery latency (POST sent → event read), and a count proving
 * no message was lost or duplicated. The node, the producer and the consumers share this one
 * process (and the machine's 2 cores), so the figures are a floor.
 *
 * BENCH_MESSAGES (default 20000), BENCH_CONSUMERS (4), BENCH_CONCURRENCY (32 POSTs in flight).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { loadConfig } from '../../lib/config/load-config';
import { startNode } from '../../lib/node';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONSUMERS = Number(process.env.BENCH_CONSUMERS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);

const document = {
  openapi: '3.0.3',
  info: { title: 'Bench', version: '1' },
  paths: {},
  'x-gw-api-gateway': { info: { name: 'Bench', state: { active: true } }, server: { listenPath: { value: '/bench/', strip: true } }, upstream: { url: 'http://127.0.0.1:9' } },
  'x-gw-streaming': { streams: { bench: { input: { http_server: { path: '/in', timeout: '60s' } }, output: { http_server: { stream_path: '/sse' } } } } },
};

/** One SSE consumer: records, per message sequence number, when it was read. */
function consume(url: string, received: Map<number, number>, duplicates: { count: number }): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const seq = Number(event.slice('data: '.length).split(':')[0]);
          if (received.has(seq)) duplicates.count++;
          else received.set(seq, performance.now());
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', (err) => (err.message.includes('aborted') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    req.end();
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-streams-'));
  const node = await startNode(loadConfig({}, { gatewayPort: 0, dashboardPort: 0, dataDir, databaseUrl: `sqlite:${join(dataDir, 'gw.sqlite')}`, appsDir: join(dataDir, 'apps'), logLevel: 'error', streamsDrainTimeout: 1 }));
  const gateway = `http://127.0.0.1:${node.portOf('proxy')}`;
  const pool = new Pool(gateway, { connections: CONCURRENCY, pipelining: 1 });
  const stops: Array<() => void> = [];
  try {
    const created = await fetch(`${gateway}/gw/apis/oas`, { method: 'POST', headers: { 'x-gw-authorization': node.config.secret }, body: JSON.stringify(document) });
    if (created.status !== 200) throw new Error(`could not create the stream API: ${created.status} ${await created.text()}`);
    const received = new Map<number, number>();
    const duplicates = { count: 0 };
    for (let i = 0; i < CONSUMERS; i++) stops.push(await consume(`${gateway}/bench/sse`, received, duplicates));
    const sentAt = new Array<number>(MESSAGES);
    let next = 0;
    let refused = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MESSAGES) {
          const seq = next++;
          sentAt[seq] = performance.now();
          const res = await pool.request({ path: '/bench/in', method: 'POST', body: `${seq}:${'x'.repeat(100)}` });
          await res.body.dump();
          if (res.statusCode !== 200) refused++;
        }
      }),
    );
    const deadline = Date.now() + 30_000;
    while (received.size < MESSAGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const last = Math.max(...received.values());
    const latencies = [...received].map(([seq, at]) => at - sentAt[seq]).sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))].toFixed(2);
    const lost = MESSAGES - received.size;
    const rows = [
      ['messages', MESSAGES],
      ['consumers (SSE)', CONSUMERS],
      ['POSTs in flight', CONCURRENCY],
      ['msg/s end to end', Math.round(received.size / ((last - started) / 1000))],
      ['latency p50 ms', p(0.5)],
      ['latency p99 ms', p(0.99)],
      ['lost', lost],
      ['duplicated', duplicates.count],
      ['POSTs refused', refused],
    ];
    for (const [name, value] of rows) process.stdout.write(`${String(name).padEnd(20)} ${value}\n`);
    if (lost > 0 || duplicates.count > 0) process.exitCode = 1;
  } finally {
    stops.forEach((stop) => stop());
    await pool.close();
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench:streams failed: ${(err as Error).stack}\n`);
  process.exitCode = 1;
});
