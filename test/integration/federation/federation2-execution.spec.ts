import { strict as assert } from 'node:assert';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, validate } from 'graphql';
import { composeSupergraph } from '../../../lib/graphql/federation/compose-supergraph';
import { Federation2Graph } from '../../../services/graphql-engine/lib/federation/federation2/federation2-graph';
import { isFederation2, type Federation2Supergraph } from '../../../services/graphql-engine/lib/federation/supergraph';
import { serveSubgraph, type RunningSubgraph } from '../../support/federation-subgraphs';
import type { FederatedResponse } from '../../../services/graphql-engine/lib/federation/federated-graph';

const LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])';

interface SubgraphFixture {
  sdl: string;
  resolvers: Record<string, unknown>;
}

/** Serves the subgraphs, composes them as gw does on save, and answers operations as a supergraph API does. */
async function startSupergraph(fixtures: Record<string, SubgraphFixture>): Promise<{
  supergraph: Federation2Supergraph;
  subgraphs: Record<string, RunningSubgraph>;
  /** the gate's validation against the client schema, then the Federation 2 executor */
  ask(query: string): Promise<FederatedResponse>;
  stop(): Promise<void>;
}> {
  const running = await Promise.all(
    Object.entries(fixtures).map(([name, { sdl, resolvers }]) =>
      serveSubgraph(name, buildSubgraphSchema([{ typeDefs: parse(sdl), resolvers: resolvers as never }])),
    ),
  );
  const composed = composeSupergraph(running.map(({ name, url }) => ({ name, url, sdl: fixtures[name].sdl })));
  if (!composed.ok) assert.fail(`the subgraphs do not compose: ${composed.errors.map((e) => e.message).join('\n')}`);
  if (!isFederation2(composed.supergraph)) assert.fail('expected a Federation 2 supergraph');
  const supergraph = composed.supergraph;
  const graph = new Federation2Graph(supergraph);
  return {
    supergraph,
    subgraphs: Object.fromEntries(running.map((subgraph) => [subgraph.name, subgraph])),
    ask: async (query) => {
      const errors = validate(supergraph.schema, parse(query));
      if (errors.length > 0) return { errors: errors.map((error) => ({ message: error.message })) };
      return graph.execute({ query }, {});
    },
    stop: async () => void (await Promise.all(running.map((subgraph) => subgraph.stop()))),
  };
}

const book = { __typename: 'Book', id: 'b1', title: 'Dune' };

describe('federation 2: a shared field typed with a union in one subgraph and a member of it in another', function () {
  this.timeout(20_000);
  let harness: Awaited<ReturnType<typeof startSupergraph>>;

  before(async () => {
    harness = await startSupergraph({
      library: {
        sdl: `${LINK}
          union Media = Book | Song
          type Book @key(fields: "id") { id: ID! title: String! @shareable }
          type Song @key(fields: "id") { id: ID! title: String! @shareable }
          type Query { featured: Book @shareable }`,
        resolvers: { Query: { featured: () => book } },
      },
      cinema: {
        sdl: `${LINK}
          union Media = Book | Movie
          type Book @key(fields: "id") { id: ID! title: String! @shareable }
          type Movie @key(fields: "id") { id: ID! title: String! @shareable }
          type Query { featured: Media @shareable }`,
        resolvers: { Query: { featured: () => book } },
      },
    });
  });
  after(async () => harness?.stop());

  it("gives the field the union in the client schema and records each subgraph's type, as Apollo composes it", () => {
    assert.equal(String(harness.supergraph.schema.getQueryType()!.getFields().featured.type), 'Media');
    const featured = harness.supergraph.supergraphSdl.split('\n').find((line) => line.includes('featured:'));
    assert.equal(
      featured?.trim(),
      'featured: Media @join__field(graph: LIBRARY, type: "Book") @join__field(graph: CINEMA, type: "Media")',
    );
  });

  it('answers a selection of every member, and each subgraph receives only what its own type allows', async () => {
    const response = await harness.ask(
      '{ featured { __typename ... on Book { title } ... on Song { title } ... on Movie { title } } }',
    );
    assert.deepEqual(JSON.parse(JSON.stringify(response)), {
      data: { featured: { __typename: 'Book', title: 'Dune' } },
    });
    // the planner takes the field from the first subgraph resolving it, where it is a Book
    assert.equal(harness.subgraphs.cinema.received.length, 0);
    const sent = harness.subgraphs.library.received.map((request) => request.query);
    assert.equal(sent.length, 1);
    assert.match(sent[0], /featured/);
    assert.doesNotMatch(sent[0], /on (Song|Movie)/);
  });
});

describe('federation 2: an @interfaceObject field that @requires a field of the interface it declares @external', function () {
  this.timeout(20_000);
  const people = [
    { id: 'p1', name: 'Ada' },
    { id: 'p2', name: 'Alan' },
  ];
  const link =
    'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@interfaceObject", "@external", "@requires"])';
  let harness: Awaited<ReturnType<typeof startSupergraph>>;

  before(async () => {
    harness = await startSupergraph({
      people: {
        sdl: `${link}
          type Query { people: [Node!]! }
          interface Node @key(fields: "id") { id: ID! name: String }
          type Person implements Node @key(fields: "id") { id: ID! name: String }`,
        resolvers: {
          Query: { people: () => people.map((p) => ({ __typename: 'Person', ...p })) },
          Node: {
            __resolveReference: (ref: { id: string }) => ({
              __typename: 'Person',
              ...people.find((p) => p.id === ref.id),
            }),
          },
          Person: { __resolveReference: (ref: { id: string }) => people.find((p) => p.id === ref.id) },
        },
      },
      handles: {
        sdl: `${link}
          type Query { others: [Node] }
          type Node @key(fields: "id") @interfaceObject { id: ID! name: String @external handle: String @requires(fields: "name") }`,
        resolvers: {
          Query: { others: () => people.map(({ id }) => ({ id })) },
          Node: {
            __resolveReference: (ref: { id: string; name?: string }) => ref,
            handle: (node: { name?: string }) => {
              if (!node.name) throw new Error('the required name was not sent');
              return `@${node.name.toLowerCase()}`;
            },
          },
        },
      },
    });
  });
  after(async () => harness?.stop());

  it('fetches the required field from the interface subgraph and sends it in the representation', async () => {
    const response = await harness.ask('{ others { id name handle } }');
    assert.deepEqual(JSON.parse(JSON.stringify(response)), {
      data: {
        others: [
          { id: 'p1', name: 'Ada', handle: '@ada' },
          { id: 'p2', name: 'Alan', handle: '@alan' },
        ],
      },
    });
    const sent = harness.subgraphs.handles.received.flatMap((request) => request.variables.representations ?? []);
    assert.deepEqual(sent, [
      { __typename: 'Node', id: 'p1', name: 'Ada' },
      { __typename: 'Node', id: 'p2', name: 'Alan' },
    ]);
  });
});
