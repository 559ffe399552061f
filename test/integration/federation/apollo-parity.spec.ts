import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { parse, type OperationDefinitionNode } from 'graphql';
import { FederatedGraph } from '../../../services/graphql-engine/lib/federation/federated-graph';
import { benchmarkSupergraph, startSubgraphs, type RunningSubgraph } from '../../support/federation-subgraphs';

const NESTED = `
  fragment User on User { id username name }
  fragment Review on Review { id body }
  fragment Product on Product { inStock name price shippingEstimate upc weight }
  query TestQuery {
    users { ...User reviews { ...Review product { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } } } }
    topProducts { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } }
  }`;

/** The federation benchmark's nested query answered by gw's planner and by @apollo/gateway 2.14 over the same subgraphs. */
describe('federation: the same answers as @apollo/gateway', function () {
  this.timeout(20_000);
  let subgraphs: Record<string, RunningSubgraph>;
  let apollo: ApolloGateway;

  before(async () => {
    subgraphs = await startSubgraphs();
  });
  after(async () => {
    await apollo?.stop();
    await Promise.all(Object.values(subgraphs ?? {}).map((s) => s.stop()));
  });

  it('answers the benchmark query identically, byte for byte', async () => {
    const urls = { accounts: subgraphs.accounts.url, inventory: subgraphs.inventory.url, products: subgraphs.products.url, reviews: subgraphs.reviews.url };
    apollo = new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs: Object.entries(urls).map(([name, url]) => ({ name, url })) }), logger: silent });
    const { schema, executor } = await apollo.load();
    const document = parse(NESTED);
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
    const request = { query: NESTED, operationName: 'TestQuery' };
    const expected = await executor({
      request,
      document,
      source: NESTED,
      queryHash: createHash('sha256').update(NESTED).digest('hex'),
      operationName: 'TestQuery',
      operation,
      schema,
      context: {},
      logger: silent,
      metrics: {},
      overallCachePolicy: { restrict() {}, replace() {}, policyIfCacheable: () => null },
    } as never);
    const gw = await new FederatedGraph(benchmarkSupergraph(urls)).execute(request, {});
    assert.equal((expected as { errors?: unknown }).errors, undefined);
    assert.equal(JSON.stringify(gw), JSON.stringify(expected));
  });
});

const silent = { debug() {}, info() {}, warn() {}, error() {} };
