/**
 * `npm run bench:streams`: streams end to end through the gateway, each scenario with
 * messages per second (first send → last read), p50/p99 delivery latency (sent → read) and a
 * count proving no message was lost or duplicated:
 *  - http_server input → http_server output (SSE) with N consumers;
 *  - http_server input → mapping → kafka output (the in-memory test broker), read by a kafkajs consumer;
 *  - nats input → mapping → http_server output (SSE), published by a NATS client (GW_TEST_NATS).
 * The node, the brokers' clients, the producer and the consumers share this one process (and
 * the machine's cores), so the figures are a floor.
 *
 * BENCH_MESSAGES (default 20000), BENCH_CONSUMERS (4), BENCH_CONCURRENCY (32 sends in flight),
 * BENCH_SCENARIOS (comma-separated: sse,kafka,nats; default all), BENCH_MAPPING=1 (a mapping in the sse scenario too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { connect as natsConnect } from 'nats';
import { Pool } from 'undici';
import { loadConfig } from '../../lib/config/load-config';
import { startNode } from '../../app/node';
import { KafkaTestBroker } from '../../test/support/kafka-broker';
import { consumeSse, newDeliveries, record, report, sendAll } from './measure';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONSUMERS = Number(process.env.BENCH_CONSUMERS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'sse,kafka,nats').split(',');
const NATS = process.env.GW_TEST_NATS ?? 'nats://127.0.0.1:4222';
const MAPPING = { mapping: 'root = content().string().uppercase()' };

function streamsDocument(name: string, listenPath: string, stream: Record<string, unknown>) {
  return {
    openapi: '3.0.3',
    info: { title: name, version: '1' },
    paths: {},
    'x-gw-api-gateway': {
      info: { name, state: { active: true } },
      server: { listenPath: { value: listenPath, strip: true } },
      upstream: { url: 'http://127.0.0.1:9' },
    },
    'x-gw-streaming': { streams: { bench: stream } },
  };
}

type Node = Awaited<ReturnType<typeof startNode>>;

async function createApi(node: Node, gateway: string, document: unknown): Promise<void> {
  const created = await fetch(`${gateway}/gw/apis/oas`, {
    method: 'POST',
    headers: { 'x-gw-authorization': node.config.secret },
    body: JSON.stringify(document),
  });
  if (created.status !== 200)
    throw new Error(`could not create the stream API: ${created.status} ${await created.text()}`);
}

function poster(pool: Pool, path: string) {
  return async (_seq: number, body: string) => {
    const res = await pool.request({ path, method: 'POST', body });
    await res.body.dump();
    return res.statusCode === 200;
  };
}

async function httpToSse(node: Node, gateway: string, pool: Pool): Promise<void> {
  // BENCH_MAPPING=1: input → mapping → SSE (docs/performance.md#streams)
  const pipeline = process.env.BENCH_MAPPING === '1' ? { pipeline: { processors: [MAPPING] } } : {};
  await createApi(
    node,
    gateway,
    streamsDocument('Bench SSE', '/bench/', {
      input: { http_server: { path: '/in', timeout: '60s' } },
      ...pipeline,
      output: { http_server: { stream_path: '/sse' } },
    }),
  );
  const deliveries = newDeliveries();
  const stops = await Promise.all(
    Array.from({ length: CONSUMERS }, () => consumeSse(`${gateway}/bench/sse`, deliveries)),
  );
  try {
    const sent = await sendAll(MESSAGES, CONCURRENCY, poster(pool, '/bench/in'));
    await report('http_server → http_server (SSE)', MESSAGES, deliveries, sent, [
      ['consumers (SSE)', CONSUMERS],
      ['mapping processor', process.env.BENCH_MAPPING === '1' ? 'yes' : 'no'],
      ['POSTs in flight', CONCURRENCY],
    ]);
  } finally {
    stops.forEach((stop) => stop());
  }
}

async function httpToKafka(node: Node, gateway: string, pool: Pool): Promise<void> {
  const broker = await new KafkaTestBroker().start();
  const topic = 'bench';
  broker.createTopic(topic, 4);
  await createApi(
    node,
    gateway,
    streamsDocument('Bench Kafka', '/kafka/', {
      input: { http_server: { path: '/in', timeout: '60s' } },
      pipeline: { processors: [MAPPING] },
      output: {
        kafka: {
          addresses: [broker.address],
          topic,
          key: '${! content().string().split(":").index(0) }',
          max_in_flight: CONCURRENCY,
        },
      },
    }),
  );
  const deliveries = newDeliveries();
  const consumer = new Kafka({ clientId: 'bench', brokers: [broker.address], logLevel: logLevel.NOTHING }).consumer({
    groupId: 'bench',
    maxWaitTimeInMs: 100,
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachBatch: async ({ batch }) => batch.messages.forEach((m) => record(deliveries, m.value!.toString())),
    });
    const sent = await sendAll(MESSAGES, CONCURRENCY, poster(pool, '/kafka/in'));
    await report('http_server → mapping → kafka (test broker), read by kafkajs', MESSAGES, deliveries, sent, [
      ['POSTs in flight', CONCURRENCY],
      ['partitions', 4],
    ]);
  } finally {
    await consumer.disconnect();
    await broker.stop();
  }
}

async function natsToSse(node: Node, gateway: string): Promise<void> {
  const subject = `gw.bench.${process.pid}`;
  await createApi(
    node,
    gateway,
    streamsDocument('Bench NATS', '/nats/', {
      input: { nats: { urls: [NATS], subject } },
      pipeline: { processors: [MAPPING] },
      output: { http_server: { stream_path: '/sse' } },
    }),
  );
  const deliveries = newDeliveries();
  const stops = await Promise.all(
    Array.from({ length: CONSUMERS }, () => consumeSse(`${gateway}/nats/sse`, deliveries)),
  );
  const nc = await natsConnect({ servers: NATS });
  try {
    // the stream subscribes asynchronously: probes until one comes through (not counted)
    for (let i = 0; deliveries.probes === 0 && i < 200; i++) {
      nc.publish(subject, `probe-${i}`);
      await nc.flush();
      await new Promise((r) => setTimeout(r, 50));
    }
    let sinceFlush = 0;
    const sent = await sendAll(MESSAGES, 1, async (_seq, body) => {
      nc.publish(subject, body);
      if (++sinceFlush >= 100) {
        sinceFlush = 0;
        await nc.flush();
      }
      return true;
    });
    await nc.flush();
    await report('nats → mapping → http_server (SSE)', MESSAGES, deliveries, sent, [['consumers (SSE)', CONSUMERS]]);
  } finally {
    stops.forEach((stop) => stop());
    await nc.close();
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-streams-'));
  const node = await startNode(
    loadConfig(
      {},
      {
        gatewayPort: 0,
        dashboardPort: 0,
        dataDir,
        databaseUrl: `sqlite:${join(dataDir, 'gw.sqlite')}`,
        appsDir: join(dataDir, 'apps'),
        logLevel: 'error',
        streamsDrainTimeout: 1,
      },
    ),
  );
  const gateway = `http://127.0.0.1:${node.portOf('proxy')}`;
  const pool = new Pool(gateway, { connections: CONCURRENCY, pipelining: 1 });
  try {
    if (SCENARIOS.includes('sse')) await httpToSse(node, gateway, pool);
    if (SCENARIOS.includes('kafka')) await httpToKafka(node, gateway, pool);
    if (SCENARIOS.includes('nats')) await natsToSse(node, gateway);
  } finally {
    await pool.close();
    await node.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench:streams failed: ${(err as Error).stack}\n`);
  process.exitCode = 1;
});
