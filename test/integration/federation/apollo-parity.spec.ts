import { strict as assert } from 'node:assert';
import { FederatedGraph } from '../../../services/graphql-engine/lib/federation/federated-graph';
import { startApolloGateway, type RunningApolloGateway } from '../../support/apollo-gateway';
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
  let apollo: RunningApolloGateway;

  before(async () => {
    subgraphs = await startSubgraphs();
  });
  after(async () => {
    await apollo?.stop();
    await Promise.all(Object.values(subgraphs ?? {}).map((s) => s.stop()));
  });

  it('answers the benchmark query identically, byte for byte', async () => {
    const urls = {
      accounts: subgraphs.accounts.url,
      inventory: subgraphs.inventory.url,
      products: subgraphs.products.url,
      reviews: subgraphs.reviews.url,
    };
    apollo = await startApolloGateway(Object.entries(urls).map(([name, url]) => ({ name, url })));
    const request = { query: NESTED, operationName: 'TestQuery' };
    const expected = await apollo.execute(request);
    const gw = await new FederatedGraph(benchmarkSupergraph(urls)).execute(request, {});
    assert.equal(expected.errors, undefined);
    assert.equal(JSON.stringify(gw), JSON.stringify(expected));
  });
});
