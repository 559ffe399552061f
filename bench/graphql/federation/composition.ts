/**
 * What composing the federation benchmark's supergraph costs (part of `npm run bench:graphql`;
 * docs/performance.md#graphql): composeSupergraph on the four Federation v1 subgraphs (gw's own
 * composer) and on the same four written for Federation 2 (@theguild/federation-composition), as
 * on saving a supergraph API; then building the executor a gateway node makes from the result
 * (gw's v1 planner, or @graphql-tools/federation's stitched schema), as on loading it.
 * The two versions alternate in every run so the machine's noise falls on both; median of
 * BENCH_COMPOSITIONS runs (200) after a warm-up, in ms.
 */
import { performance } from 'node:perf_hooks';
import { composeSupergraph, type SubgraphSource } from '../../../lib/graphql/federation/compose-supergraph';
import { isFederation2, type ComposedSupergraph } from '../../../lib/graphql/federation/supergraph';
import { supergraphExecutor } from '../../../services/graphql-engine/lib/federation/supergraph-api';
import { median } from '../../support';
import type { FederationVersion } from './federation-benchmark';

const RUNS = Number(process.env.BENCH_COMPOSITIONS ?? 200);
const WARM_UP = 20;
const { sdlOf } = require('./schema.js') as { sdlOf(version: FederationVersion): Record<string, string> };

function sourcesOf(version: FederationVersion): SubgraphSource[] {
  return Object.entries(sdlOf(version)).map(([name, sdl]) => ({ name, sdl, url: `http://127.0.0.1:9/${name}` }));
}

function compose(sources: SubgraphSource[]): ComposedSupergraph {
  const result = composeSupergraph(sources, { hints: true });
  if (!result.ok) throw new Error(`composition failed: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.supergraph;
}

/** The executor a node builds: gw's planner, or the Federation 2 planner when the supergraph needs it. */
function buildExecutor(supergraph: ComposedSupergraph): void {
  supergraphExecutor(supergraph, true);
}

/** One run: milliseconds to compose, then to build the executor from what was composed. */
function timeOnce(sources: SubgraphSource[]): { compose: number; build: number } {
  const start = performance.now();
  const supergraph = compose(sources);
  const composed = performance.now();
  buildExecutor(supergraph);
  return { compose: composed - start, build: performance.now() - composed };
}

function main(): void {
  const versions: FederationVersion[] = [1, 2];
  const sources = new Map(versions.map((version) => [version, sourcesOf(version)]));
  const federation2 = compose(sources.get(2)!);
  if (!isFederation2(federation2)) throw new Error('the Federation 2 subgraphs were not composed as Federation 2');
  const times = new Map(versions.map((version) => [version, { compose: [] as number[], build: [] as number[] }]));
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    for (const version of run % 2 === 0 ? versions : [...versions].reverse()) {
      const once = timeOnce(sources.get(version)!);
      if (run < WARM_UP) continue;
      times.get(version)!.compose.push(once.compose);
      times.get(version)!.build.push(once.build);
    }
  }
  const row = (version: FederationVersion, composer: string) =>
    `| ${version === 2 ? 'Federation 2' : 'Federation v1'} | ${composer} | ${median(times.get(version)!.compose).toFixed(2)} | ${median(times.get(version)!.build).toFixed(2)} |`;
  process.stdout.write(
    [
      '',
      `| 4 subgraphs | composer | composeSupergraph, ms (median of ${RUNS}) | executor built from it, ms |`,
      '|---|---|---|---|',
      row(1, "gw's own"),
      row(2, '@theguild/federation-composition'),
      '',
    ].join('\n'),
  );
}

main();
