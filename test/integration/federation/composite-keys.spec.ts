import { strict as assert } from 'node:assert';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { buildSchema, parse } from 'graphql';
import { FederatedGraph } from '../../../services/graphql-engine/lib/federation/federated-graph';
import type { Supergraph } from '../../../services/graphql-engine/lib/federation/supergraph';
import { serveSubgraph, type RunningSubgraph } from '../../support/federation-subgraphs';

const places = [
  { city: 'Paris', country: { code: 'FR' }, name: 'Paris, France' },
  { city: 'Paris', country: { code: 'US' }, name: 'Paris, Texas' },
];
const temperatures: Record<string, number> = { 'Paris/FR': 12, 'Paris/US': 25 };

const LOCATIONS = `
  interface Place { name: String }
  type Country { code: String! }
  type Location implements Place @key(fields: "city country { code }") { city: String! country: Country! name: String }
  extend type Query { places: [Place] locations: [Location] }`;
const WEATHER = `
  type Country { code: String! }
  extend type Location @key(fields: "city country { code }") { city: String! @external country: Country! @external temperature: Int }`;

describe('federation: composite keys and interfaces', () => {
  let locations: RunningSubgraph;
  let weather: RunningSubgraph;
  let graph: FederatedGraph;

  before(async () => {
    locations = await serveSubgraph(
      'locations',
      buildSubgraphSchema([
        {
          typeDefs: parse(LOCATIONS),
          resolvers: {
            Query: { places: () => places, locations: () => places },
            Place: { __resolveType: () => 'Location' },
          } as never,
        },
      ]),
    );
    weather = await serveSubgraph(
      'weather',
      buildSubgraphSchema([
        {
          typeDefs: parse(WEATHER),
          resolvers: {
            Location: {
              __resolveReference: (ref: { city: string; country: { code: string } }) => ({
                ...ref,
                temperature: temperatures[`${ref.city}/${ref.country.code}`],
              }),
            },
          } as never,
        },
      ]),
    );
    graph = new FederatedGraph(supergraphOf(locations.url, weather.url));
  });
  after(async () => Promise.all([locations?.stop(), weather?.stop()]));

  it('sends a nested composite key in the representation', async () => {
    const response = await graph.execute({ query: '{ locations { name temperature } }' }, {});
    assert.deepEqual(response, {
      data: {
        locations: [
          { name: 'Paris, France', temperature: 12 },
          { name: 'Paris, Texas', temperature: 25 },
        ],
      },
    });
    assert.deepEqual(weather.received.at(-1)!.variables.representations, [
      { __typename: 'Location', city: 'Paris', country: { __typename: 'Country', code: 'FR' } },
      { __typename: 'Location', city: 'Paris', country: { __typename: 'Country', code: 'US' } },
    ]);
  });

  it('resolves entity fields inside an inline fragment on an interface', async () => {
    const response = await graph.execute(
      { query: '{ places { __typename name ... on Location { temperature } } }' },
      {},
    );
    assert.deepEqual(response, {
      data: {
        places: [
          { __typename: 'Location', name: 'Paris, France', temperature: 12 },
          { __typename: 'Location', name: 'Paris, Texas', temperature: 25 },
        ],
      },
    });
  });

  it('answers introspection from the supergraph schema', async () => {
    const response = await graph.execute({ query: '{ __type(name: "Location") { fields { name } } }' }, {});
    assert.deepEqual(
      (response.data as any).__type.fields.map((f: { name: string }) => f.name),
      ['city', 'country', 'name', 'temperature'],
    );
  });
});

function supergraphOf(locationsUrl: string, weatherUrl: string): Supergraph {
  const sdl = `
    interface Place { name: String }
    type Country { code: String! }
    type Location implements Place { city: String! country: Country! name: String temperature: Int }
    type Query { places: [Place] locations: [Location] }`;
  const at = (...resolvedBy: string[]) => ({ resolvedBy, requires: {}, provides: {} });
  return {
    schema: buildSchema(sdl),
    sdl,
    subgraphs: [
      { name: 'locations', url: locationsUrl, headers: {}, subscriptionType: 'graphql-ws' },
      { name: 'weather', url: weatherUrl, headers: {}, subscriptionType: 'graphql-ws' },
    ],
    fields: {
      Query: { places: at('locations'), locations: at('locations') },
      Place: { name: at('locations') },
      Country: { code: at('locations', 'weather') },
      Location: { city: at('locations'), country: at('locations'), name: at('locations'), temperature: at('weather') },
    },
    entities: { Location: { keys: { locations: ['city country { code }'], weather: ['city country { code }'] } } },
  };
}
