/** The Federation v1 scenario of `npm run bench:graphql` (federation-benchmark.ts says what it measures). */
import { benchmarkFederation } from './federation-benchmark';

benchmarkFederation(1);
