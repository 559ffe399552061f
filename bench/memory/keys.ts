/**
 * `npm run bench:memory-keys`: resident memory of a gw node with 1,000 APIs and 100,000 keys
 * (docs/performance.md#memory), the node as `npm start` runs it: every service in one
 * process, SQLite store.
 *
 * 1. Seeding, through the management role: a management node in this process (the apis and
 *    keys services over the store file the gw node will use) creates BENCH_APIS token APIs and
 *    BENCH_KEYS keys with `apis.create` and `keys.create`, 32 at a time: the same validation,
 *    hashing and storage as `POST /gw/keys`, without HTTP (4–10× the rate of the /gw API on
 *    these machines). Key i may call API i mod BENCH_APIS, with a rate limit and a quota. The
 *    store lives in /dev/shm when there is one, so the seeding is not held up by fsync.
 * 2. The management node stops; a gw node (child process) starts on that store and loads the
 *    APIs from it. Its VmRSS is read from /proc.
 * 3. Every key is used once through the gateway (32 connections; each answer must be 200), as
 *    clients would; VmRSS again. The node stops, and 2–3 run again with analytics off.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { callAction } from '../../lib/bus/call';
import { loadConfig } from '../../lib/config/load-config';
import { startNode as startGwInProcess } from '../../app/node';
import { freePort, runBenchmark } from '../support';
import { children, rssMb, startGw, startNode } from '../proxy/systems';

const APIS = Number(process.env.BENCH_APIS ?? 1000);
const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const CONCURRENCY = 32;
/** What each key may do on its API: limits the gateway keeps counters for, never reached here. */
const KEY_LIMITS = { rate: 1000, per: 60, quota_max: 100_000, quota_renewal_rate: 3600 };
/** The node as shipped, then the same without analytics, to tell what analytics keeps. */
const VARIANTS = [
  { name: 'as shipped (analytics on)', env: {} },
  { name: 'analytics off (GW_ANALYTICS=false)', env: { GW_ANALYTICS: 'false' } },
] as const;

async function main(): Promise<void> {
  const work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'gw-bench-keys-'));
  try {
    await measure(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function measure(work: string): Promise<void> {
  const upstreamPort = await freePort();
  await startNode(join(__dirname, '../proxy/upstream.js'), { PORT: String(upstreamPort) });
  // startGw runs the gw node in work/gw, whose default store is ./data/gw.sqlite.
  const dataDir = join(work, 'gw', 'data');
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = `sqlite:${join(dataDir, 'gw.sqlite')}`;

  const seedStart = Date.now();
  const keys = await seed(dataDir, databaseUrl, upstreamPort);
  const seedSeconds = (Date.now() - seedStart) / 1000;
  out(
    `seeded ${APIS} APIs and ${KEYS} keys through the management role (keys.create, ${CONCURRENCY} at a time) in ${seedSeconds.toFixed(0)} s (${(KEYS / seedSeconds).toFixed(0)} keys/s)`,
  );

  for (const variant of VARIANTS) await measureNode(work, upstreamPort, databaseUrl, keys, variant);
  out(
    'Resident in such a node: the compiled APIs and routing table; the auth session cache (bounded: the 50,000 most recently used sessions); ' +
      'the limiter counters (rate and quota) of every key used, until they expire; the SQLite connection and its page cache (the key rows are in the store file, not in the heap); ' +
      'with analytics on, the record batch and the analytics service storing them.',
  );
}

/** One gw node on the seeded store: VmRSS once it serves every API, and after every key was used once. */
async function measureNode(
  work: string,
  upstreamPort: number,
  databaseUrl: string,
  keys: string[],
  variant: (typeof VARIANTS)[number],
): Promise<void> {
  const startedAt = Date.now();
  const gw = await startGw(work, 'gw', upstreamPort, 0, 'all', { GW_DATABASE_URL: databaseUrl, ...variant.env });
  const startupSeconds = (Date.now() - startedAt) / 1000;
  const pool = new Pool(gw.url, { connections: CONCURRENCY });
  // The node loads its APIs from the store after it starts listening: wait for the last one.
  await waitFor(async () => (await get(pool, `/api-${APIS - 1}/hello`, keys[APIS - 1])) === 200);
  out(
    `gw node, ${variant.name}: up in ${startupSeconds.toFixed(1)} s, serving API ${APIS - 1} after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  out(`  VmRSS, ${APIS} APIs loaded, ${KEYS} keys in its store, none used yet: ${rssMb(gw.pid)} MB`);

  const useStart = Date.now();
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < KEYS) {
        const i = next++;
        const status = await get(pool, `/api-${i % APIS}/hello`, keys[i]);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const useSeconds = (Date.now() - useStart) / 1000;
  if (statuses.size !== 1 || !statuses.has(200))
    throw new Error(`using every key once: expected only 200s, got ${JSON.stringify(Object.fromEntries(statuses))}`);
  out(
    `  VmRSS after each of the ${KEYS} keys was used once (${KEYS} requests, all 200, ${(KEYS / useSeconds).toFixed(0)} req/s): ${rssMb(gw.pid)} MB`,
  );
  await pool.close();
  // The next node opens the same store: this one goes first.
  await new Promise<void>((resolve) => {
    gw.child.once('exit', () => resolve());
    gw.child.kill('SIGTERM');
  });
}

/** Creates the APIs and keys through a management node in this process; returns the keys, key i for API i mod APIS. */
async function seed(dataDir: string, databaseUrl: string, upstreamPort: number): Promise<string[]> {
  const config = loadConfig(
    {},
    {
      services: ['management'],
      gatewayPort: 0,
      dashboardPort: 0,
      dataDir,
      databaseUrl,
      secret: 'bench',
      adminSecret: 'bench',
      logLevel: 'warn',
    },
  );
  const node = await startGwInProcess(config);
  try {
    for (let i = 0; i < APIS; i++) {
      await callAction(node.broker, 'apis.create', {
        api_definition: {
          api_id: `api-${i}`,
          name: `api ${i}`,
          use_keyless: false,
          active: true,
          proxy: {
            listen_path: `/api-${i}/`,
            target_url: `http://127.0.0.1:${upstreamPort}/api`,
            strip_listen_path: true,
          },
        },
      });
    }
    const keys = new Array<string>(KEYS);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < KEYS) {
          const i = next++;
          const apiId = `api-${i % APIS}`;
          const created = await callAction(node.broker, 'keys.create', {
            session: { ...KEY_LIMITS, access_rights: { [apiId]: { api_id: apiId } } },
          });
          keys[i] = created.key_id;
          if ((i + 1) % 10_000 === 0) process.stderr.write(`${i + 1} keys\n`);
        }
      }),
    );
    return keys;
  } finally {
    await node.stop();
  }
}

async function get(pool: Pool, path: string, key: string): Promise<number> {
  const res = await pool.request({ method: 'GET', path, headers: { authorization: key } });
  await res.body.dump();
  return res.statusCode;
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the gw node did not serve the last API within 30 s');
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

runBenchmark('bench:memory-keys', main, children);
