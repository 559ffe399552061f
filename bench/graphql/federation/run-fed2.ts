/**
 * The Federation 2 scenario of `npm run bench:graphql`: the same subgraphs, data and query as
 * run.ts, written as Federation 2 SDL, so gw serves them on its Federation 2 path
 * (federation-benchmark.ts says what it measures).
 */
import { benchmarkFederation } from './federation-benchmark';

benchmarkFederation(2);
