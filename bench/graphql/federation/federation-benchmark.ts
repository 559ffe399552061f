/**
 * The federation scenarios of `npm run bench:graphql` (issue 15, docs/performance.md#graphql): the
 * four subgraphs (accounts, inventory, products, reviews; @apollo/subgraph) behind gw and behind
 * @apollo/gateway 2.14, the deeply nested query, identical responses checked first, then wrk with
 * 50 connections, rounds alternated, median of the rounds. run.ts writes the subgraphs for
 * Federation v1 (gw's own composer and planner serve them); run-fed2.ts writes the same subgraphs
 * for Federation 2 (`@link`ed to federation/v2.3), which gw composes with
 * @theguild/federation-composition and runs on @graphql-tools/federation's planner: expect that
 * one well below gw's v1 path (it plans every request anew, where the v1 planner caches plans) and
 * near Hive Gateway, which runs the same planner. composition.ts times composing both versions.
 * @graphql-hive/gateway (gateway-runtime 2.12, hive-gateway.js) joins the table when it answers the
 * query without errors; otherwise its first error is printed and it is left out.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, median, runBenchmark } from '../../support';

export type FederationVersion = 1 | 2;

const ROOT = resolve(__dirname, '../../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const NAMES = ['accounts', 'inventory', 'products', 'reviews'] as const;
const children: ChildProcess[] = [];
const { sdlOf, QUERY } = require('./schema.js') as {
  sdlOf(version: FederationVersion): Record<(typeof NAMES)[number], string>;
  QUERY: string;
};

/** Runs one scenario: the subgraphs written for `version`, every gateway over them. */
export function benchmarkFederation(version: FederationVersion): void {
  // the children (subgraphs.js, hive-gateway.js) read the version from their environment
  process.env.FEDERATION = String(version);
  runBenchmark(`bench:graphql (federation ${label(version)})`, () => main(version), children);
}

function label(version: FederationVersion): string {
  return version === 2 ? 'Federation 2' : 'Federation v1';
}

async function main(version: FederationVersion): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gw-bench-federation-'));
  const ports = await Promise.all(NAMES.map(() => freePort()));
  await forkReady('subgraphs.js', { PORTS: ports.join(',') });
  const urls = NAMES.map((name, i) => [name, `http://127.0.0.1:${ports[i]}/graphql`] as const);

  const apolloPort = await freePort();
  await forkReady('apollo-gateway.js', {
    PORT: String(apolloPort),
    SUBGRAPHS: urls.map(([name, url]) => `${name}=${url}`).join(','),
  });
  const gwPort = await startGw(work, urls, sdlOf(version));

  const targets = [
    { name: '@apollo/gateway 2.14', url: `http://127.0.0.1:${apolloPort}/graphql` },
    {
      name: version === 2 ? 'gw (supergraph API, Federation 2 path)' : 'gw (supergraph API)',
      url: `http://127.0.0.1:${gwPort}/shop`,
    },
  ];
  const hiveNote = await addHive(targets, urls);
  const answers = await Promise.all(targets.map((t) => ask(t.url)));
  if (answers.some((a) => a !== answers[0]) || answers[0].includes('"errors"'))
    throw new Error(
      `the gateways answered differently or with errors:\n${answers.map((a) => a.slice(0, 300)).join('\n')}`,
    );

  const script = join(work, 'post.lua');
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify({ query: QUERY }))}\nwrk.headers["Content-Type"] = "application/json"\n`,
  );
  for (const target of targets) wrk(target.url, script, 3);
  const results = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse())
      results.get(target.name)!.push(wrk(target.url, script, SECONDS));
  }
  const medians = targets.map((t) => median(results.get(t.name)!));
  process.stdout.write(
    [
      '',
      `| gateway (${label(version)}, 4 subgraphs, nested query) | req/s (median of ${ROUNDS}, 50 connections) | × @apollo/gateway |`,
      '|---|---|---|',
      ...targets.map((t, i) => `| ${t.name} | ${medians[i].toFixed(0)} | ${(medians[i] / medians[0]).toFixed(2)}× |`),
      '',
      `Responses were identical (${answers[0].length} bytes). ${hiveNote}`,
      '',
    ].join('\n'),
  );
}

async function ask(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  });
  return response.text();
}

/** Starts @graphql-hive/gateway and adds it to the targets only if it answers without errors. */
async function addHive(
  targets: { name: string; url: string }[],
  urls: ReadonlyArray<readonly [string, string]>,
): Promise<string> {
  const port = await freePort();
  try {
    await forkReady('hive-gateway.js', {
      PORT: String(port),
      SUBGRAPHS: urls.map(([name, url]) => `${name}=${url}`).join(','),
    });
  } catch (err) {
    return `@graphql-hive/gateway did not start (${(err as Error).message}) and was not measured.`;
  }
  const url = `http://127.0.0.1:${port}/graphql`;
  const answer = await ask(url);
  if (answer.includes('"errors"'))
    return `@graphql-hive/gateway answered with errors and was not measured: ${answer.slice(0, 300)}`;
  targets.push({ name: '@graphql-hive/gateway-runtime 2.12', url });
  return '';
}

function forkReady(file: string, env: Record<string, string>): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    const child = fork(join(__dirname, file), [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
    child.once('message', () => resolvePromise());
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
}

/** gw with one supergraph API (from an apps folder) over the four subgraphs. */
async function startGw(
  work: string,
  urls: ReadonlyArray<readonly [string, string]>,
  sdl: Record<(typeof NAMES)[number], string>,
): Promise<number> {
  const apps = join(work, 'apps');
  mkdirSync(apps, { recursive: true });
  const subgraphs = urls.map(([name, url]) => ({ name, url, sdl: sdl[name as (typeof NAMES)[number]], headers: {} }));
  writeFileSync(
    join(apps, 'shop.json'),
    JSON.stringify({
      api_id: 'shop',
      name: 'shop',
      use_keyless: true,
      proxy: { listen_path: '/shop', target_url: 'http://127.0.0.1:9', strip_listen_path: true },
      graphql: { enabled: true, execution_mode: 'supergraph', supergraph: { subgraphs } },
    }),
  );
  const port = await freePort();
  const gw = spawn(process.execPath, [join(ROOT, 'dist/app/main.js')], {
    cwd: work,
    env: {
      ...process.env,
      GW_SERVICES: 'gateway',
      GW_GATEWAY_PORT: String(port),
      GW_APPS_DIR: apps,
      GW_LOG_LEVEL: 'warn',
      GW_SECRET: 'bench',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(gw);
  await new Promise<void>((resolvePromise) =>
    gw.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Gateway:') && resolvePromise()),
  );
  return port;
}

function wrk(url: string, script: string, seconds: number): number {
  const out = execFileSync('wrk', ['-t1', '-c50', '--timeout', '30s', `-d${seconds}s`, '-s', script, url], {
    encoding: 'utf8',
  });
  if (process.env.BENCH_DEBUG) process.stderr.write(out);
  if (/Non-2xx/.test(out)) throw new Error(`wrk against ${url} saw errors:\n${out}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
}
