import { strict as assert } from 'node:assert';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { execute, parse, type GraphQLSchema } from 'graphql';
import { composeSupergraph } from '../../../lib/graphql/federation/compose-supergraph';
import { Federation2Graph } from '../../../services/graphql-engine/lib/federation/federation2/federation2-graph';
import type { SubgraphFetcher } from '../../../services/graphql-engine/lib/federation/subgraph-client';
import { isFederation2 } from '../../../services/graphql-engine/lib/federation/supergraph';

const LINK = '@link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@override"])';
const PRODUCTS = `extend schema ${LINK}
  type Query { product: Product }
  type Product @key(fields: "id") { id: ID! price: Int }`;
const pricingSdl = (label: string) => `extend schema ${LINK}
  type Product @key(fields: "id") { id: ID! price: Int @override(from: "products", label: "${label}") }`;

/** The two subgraphs, executed in process by @apollo/subgraph; each call is recorded by subgraph. */
function subgraphs(label: string): { fetcher: SubgraphFetcher; calls: string[] } {
  const schemas: Record<string, GraphQLSchema> = {
    'http://products.test/graphql': buildSubgraphSchema([
      {
        typeDefs: parse(PRODUCTS),
        resolvers: {
          Query: { product: () => ({ id: 'p1', price: 100 }) },
          Product: { __resolveReference: () => ({ id: 'p1', price: 100 }) },
        },
      },
    ]),
    'http://pricing.test/graphql': buildSubgraphSchema([
      {
        typeDefs: parse(pricingSdl(label)),
        resolvers: { Product: { __resolveReference: (ref: { id: string }) => ({ id: ref.id, price: 90 }) } },
      },
    ]),
  };
  const calls: string[] = [];
  const fetcher: SubgraphFetcher = async (url, _headers, body) => {
    calls.push(new URL(url).hostname.split('.')[0]);
    return (await execute({
      schema: schemas[url],
      document: parse(body.query),
      variableValues: body.variables,
    })) as Awaited<ReturnType<SubgraphFetcher>>;
  };
  return { fetcher, calls };
}

function graphWith(label: string) {
  const composed = composeSupergraph([
    { name: 'products', url: 'http://products.test/graphql', sdl: PRODUCTS },
    { name: 'pricing', url: 'http://pricing.test/graphql', sdl: pricingSdl(label) },
  ]);
  if (!composed.ok) assert.fail(composed.errors.map((e) => e.message).join('; '));
  if (!isFederation2(composed.supergraph)) assert.fail('expected a Federation 2 composition');
  const { fetcher, calls } = subgraphs(label);
  return { graph: new Federation2Graph(composed.supergraph, fetcher), calls };
}

/** The answer as the client reads it: JSON. */
async function answer(graph: Federation2Graph): Promise<unknown> {
  return JSON.parse(JSON.stringify(await graph.execute({ query: '{ product { id price } }' }, {})));
}

describe('federation 2: progressive @override', () => {
  it('percent(100) takes the field from the overriding subgraph on every request', async () => {
    const { graph, calls } = graphWith('percent(100)');
    for (let i = 0; i < 5; i++)
      assert.deepEqual(await answer(graph), {
        data: { product: { id: 'p1', price: 90 } },
      });
    assert.equal(calls.filter((subgraph) => subgraph === 'pricing').length, 5);
  });

  it('percent(0) keeps the field with the subgraph it overrides', async () => {
    const { graph, calls } = graphWith('percent(0)');
    for (let i = 0; i < 5; i++)
      assert.deepEqual(await answer(graph), {
        data: { product: { id: 'p1', price: 100 } },
      });
    assert.deepEqual([...new Set(calls)], ['products']);
  });
});
