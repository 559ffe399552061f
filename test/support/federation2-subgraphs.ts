import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { serveSubgraph, type RunningSubgraph } from './federation-subgraphs';

/**
 * Five Federation 2 subgraphs of a shop, written with @apollo/subgraph (which serves their SDL,
 * `@link` included, from `_service`), each a real HTTP + graphql-transport-ws server on port 0
 * that records the requests it receives. Between them they use every Federation 2 feature a
 * supergraph user meets:
 * - users: `User` entity, `email` is @inaccessible, `name` @shareable (reviews provides it)
 * - products: `Product` entity, `name` @shareable (reviews resolves it too), `price(currency:)`,
 *   and a stale `inStock` that inventory @overrides
 * - inventory: `inStock` @override(from: "products"), `shippingEstimate` @requires a price in USD
 * - reviews: `Review`, `author` @provides the user's name, `Media` as an @interfaceObject,
 *   and the `reviewAdded` subscription
 * - media: the `Media` interface entity with `Book` and `Movie`
 */
export const FEDERATION2_SDL = {
  users: `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@inaccessible"])
    type Query { me: User }
    type User @key(fields: "id") { id: ID! name: String! @shareable email: String! @inaccessible }`,
  products: `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])
    type Query { topProducts(first: Int = 5): [Product!]! }
    type Product @key(fields: "upc") {
      upc: String!
      name: String! @shareable
      price(currency: String!): Int!
      weight: Int!
      inStock: Boolean
    }`,
  inventory: `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@external", "@requires", "@override"])
    type Product @key(fields: "upc") {
      upc: String!
      price(currency: String!): Int! @external
      weight: Int! @external
      inStock: Boolean @override(from: "products")
      shippingEstimate: Int! @requires(fields: "price(currency: \\"USD\\") weight")
    }`,
  reviews: `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@provides", "@interfaceObject"])
    type Query { latestReviews: [Review!]! }
    type Subscription { reviewAdded: Review! }
    type Review { id: ID! body: String! product: Product! author: User! @provides(fields: "name") }
    type Product @key(fields: "upc") { upc: String! name: String! @shareable reviews: [Review!]! }
    type User @key(fields: "id") { id: ID! name: String! @external }
    type Media @key(fields: "id") @interfaceObject { id: ID! reviewCount: Int! }`,
  media: `
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
    type Query { media: [Media!]! }
    interface Media @key(fields: "id") { id: ID! title: String! }
    type Book implements Media @key(fields: "id") { id: ID! title: String! author: String! }
    type Movie implements Media @key(fields: "id") { id: ID! title: String! minutes: Int! }`,
};

export type Federation2Name = keyof typeof FEDERATION2_SDL;

export const FEDERATION2_NAMES = Object.keys(FEDERATION2_SDL) as Federation2Name[];

const users = [
  { id: '1', name: 'Ada Lovelace', email: 'ada@example.com' },
  { id: '2', name: 'Alan Turing', email: 'alan@example.com' },
];
const products = [
  { upc: '1', name: 'Table', priceInEuros: 899, weight: 100 },
  { upc: '2', name: 'Couch', priceInEuros: 1299, weight: 1000 },
  { upc: '3', name: 'Chair', priceInEuros: 54, weight: 50 },
];
const stock: Record<string, boolean> = { '1': true, '2': false, '3': true };
const reviews = [
  { id: '1', authorID: '1', upc: '1', body: 'Love it!' },
  { id: '2', authorID: '1', upc: '2', body: 'Too expensive.' },
  { id: '3', authorID: '2', upc: '3', body: 'Could be better.' },
];
const media = [
  { __typename: 'Book', id: 'm1', title: 'Sketch of the Analytical Engine', author: 'Ada Lovelace' },
  { __typename: 'Movie', id: 'm2', title: 'The Imitation Game', minutes: 114 },
];
const reviewCounts: Record<string, number> = { m1: 3, m2: 1 };

/** A price in US dollars: what inventory's shipping estimate requires. */
const inDollars = (euros: number) => Math.round(euros * 1.1);

const productOf = (upc: string) => products.find((product) => product.upc === upc);
const reviewed = (review: (typeof reviews)[number]) => ({
  ...review,
  product: { __typename: 'Product', upc: review.upc, name: productOf(review.upc)!.name },
  author: { __typename: 'User', id: review.authorID, name: users.find((user) => user.id === review.authorID)!.name },
});

const resolvers: Record<Federation2Name, Record<string, unknown>> = {
  users: {
    Query: { me: () => users[0] },
    User: { __resolveReference: (ref: { id: string }) => users.find((user) => user.id === ref.id) },
  },
  products: {
    Query: { topProducts: (_: unknown, args: { first: number }) => products.slice(0, args.first) },
    Product: {
      __resolveReference: (ref: { upc: string }) => productOf(ref.upc),
      price: (product: { priceInEuros: number }, args: { currency: string }) =>
        args.currency === 'USD' ? inDollars(product.priceInEuros) : product.priceInEuros,
      // products no longer knows the stock: inventory took the field over
      inStock: () => false,
    },
  },
  inventory: {
    Product: {
      __resolveReference: (ref: { upc: string; price?: number; weight?: number }) => ref,
      inStock: (product: { upc: string }) => stock[product.upc],
      shippingEstimate: (product: { price?: number; weight?: number }) => {
        if (product.price === undefined || product.weight === undefined)
          throw new Error('price and weight are required');
        return product.price > 1000 ? 0 : product.weight / 2;
      },
    },
  },
  reviews: {
    Query: { latestReviews: () => reviews.map(reviewed) },
    Subscription: {
      reviewAdded: {
        subscribe: async function* () {
          for (const review of reviews.slice(0, 2)) yield { reviewAdded: reviewed(review) };
        },
      },
    },
    Product: {
      __resolveReference: (ref: { upc: string }) => ({ upc: ref.upc, name: productOf(ref.upc)?.name }),
      reviews: (product: { upc: string }) => reviews.filter((review) => review.upc === product.upc).map(reviewed),
    },
    Media: {
      __resolveReference: (ref: { id: string }) => ref,
      reviewCount: (item: { id: string }) => reviewCounts[item.id] ?? 0,
    },
  },
  media: {
    Query: { media: () => media },
    Media: {
      __resolveType: (item: { __typename: string }) => item.__typename,
      __resolveReference: (ref: { id: string }) => media.find((item) => item.id === ref.id),
    },
    Book: { __resolveReference: (ref: { id: string }) => media.find((item) => item.id === ref.id) },
    Movie: { __resolveReference: (ref: { id: string }) => media.find((item) => item.id === ref.id) },
  },
};

/** One of the five subgraphs, served from `sdl` (its own by default) with its resolvers. */
export function startFederation2Subgraph(
  name: Federation2Name,
  sdl: string = FEDERATION2_SDL[name],
): Promise<RunningSubgraph> {
  return serveSubgraph(name, buildSubgraphSchema([{ typeDefs: parse(sdl), resolvers: resolvers[name] as never }]));
}

export async function startFederation2Subgraphs(): Promise<Record<Federation2Name, RunningSubgraph>> {
  const started = await Promise.all(FEDERATION2_NAMES.map((name) => startFederation2Subgraph(name)));
  return Object.fromEntries(started.map((subgraph) => [subgraph.name, subgraph])) as Record<
    Federation2Name,
    RunningSubgraph
  >;
}

/** A Federation 2 subgraph that adds loyalty points to the users of a Federation v1 accounts subgraph. */
export const LOYALTY_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type User @key(fields: "id") { id: ID! points: Int! }`;

export function startLoyaltySubgraph(): Promise<RunningSubgraph> {
  const points: Record<string, number> = { '1': 120, '2': 30 };
  const resolvers = {
    User: { __resolveReference: (ref: { id: string }) => ({ id: ref.id, points: points[ref.id] }) },
  };
  return serveSubgraph('loyalty', buildSubgraphSchema([{ typeDefs: parse(LOYALTY_SDL), resolvers }]));
}
