import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { buildSchema, execute, parse, subscribe, validate, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import type { Supergraph } from '../../services/graphql-engine/lib/federation/supergraph';

/**
 * The federation benchmark's four Federation v1 subgraphs (accounts, inventory, products,
 * reviews), written with @apollo/subgraph, each a real HTTP server on port 0 that records the
 * requests it receives; reviews also streams `reviewAdded` over graphql-transport-ws.
 */
export const users = [
  { id: '1', name: 'Ada Lovelace', username: '@ada' },
  { id: '2', name: 'Alan Turing', username: '@complete' },
];
export const products = [
  { upc: '1', name: 'Table', price: 899, weight: 100 },
  { upc: '2', name: 'Couch', price: 1299, weight: 1000 },
  { upc: '3', name: 'Chair', price: 54, weight: 50 },
];
const inventory = [
  { upc: '1', inStock: true },
  { upc: '2', inStock: false },
  { upc: '3', inStock: true },
];
const reviews = [
  { id: '1', authorID: '1', upc: '1', body: 'Love it!' },
  { id: '2', authorID: '1', upc: '2', body: 'Too expensive.' },
  { id: '3', authorID: '2', upc: '3', body: 'Could be better.' },
  { id: '4', authorID: '2', upc: '1', body: 'Prefer something else.' },
];

export const SUBGRAPH_SDL = {
  accounts: `
    extend type Query { me: User users: [User] }
    type User @key(fields: "id") { id: ID! name: String username: String }`,
  inventory: `
    extend type Product @key(fields: "upc") {
      upc: String! @external
      weight: Int @external
      price: Int @external
      inStock: Boolean
      shippingEstimate: Int @requires(fields: "price weight")
    }`,
  products: `
    extend type Query { topProducts(first: Int = 5): [Product] }
    type Product @key(fields: "upc") { upc: String! name: String price: Int weight: Int }`,
  reviews: `
    type Review @key(fields: "id") { id: ID! body: String author: User @provides(fields: "username") product: Product }
    extend type User @key(fields: "id") { id: ID! @external username: String @external reviews: [Review] }
    extend type Product @key(fields: "upc") { upc: String! @external reviews: [Review] }
    type Subscription { reviewAdded: Review }`,
};

type Name = keyof typeof SUBGRAPH_SDL;

const resolvers: Record<Name, Record<string, unknown>> = {
  accounts: {
    Query: { me: () => users[0], users: () => users },
    User: { __resolveReference: (ref: { id: string }) => users.find((u) => u.id === ref.id) },
  },
  inventory: {
    Product: {
      __resolveReference: (ref: { upc: string; price?: number; weight?: number }) => ({
        ...ref,
        ...inventory.find((i) => i.upc === ref.upc),
      }),
      shippingEstimate: (product: { price?: number; weight?: number }) => {
        if (product.price === undefined || product.weight === undefined)
          throw new Error('price and weight are required');
        return product.price > 1000 ? 0 : product.weight * 0.5;
      },
    },
  },
  products: {
    Query: { topProducts: (_: unknown, args: { first: number }) => products.slice(0, args.first) },
    Product: {
      __resolveReference: (ref: { upc: string }) => {
        if (ref.upc === 'broken') throw new Error('no product broken');
        return products.find((p) => p.upc === ref.upc);
      },
    },
  },
  reviews: {
    Review: {
      author: (review: { authorID: string }) => ({
        __typename: 'User',
        id: review.authorID,
        username: users.find((u) => u.id === review.authorID)!.username,
      }),
      product: (review: { upc: string }) => ({ __typename: 'Product', upc: review.upc }),
    },
    User: { reviews: (user: { id: string }) => reviews.filter((r) => r.authorID === user.id) },
    Product: { reviews: (product: { upc: string }) => reviews.filter((r) => r.upc === product.upc) },
    Subscription: {
      reviewAdded: {
        subscribe: async function* () {
          for (const review of reviews.slice(0, 2)) yield { reviewAdded: review };
        },
      },
    },
  },
};

export interface RunningSubgraph {
  name: string;
  url: string;
  /** every request received: headers and the GraphQL body */
  received: Array<{ headers: IncomingHttpHeaders; query: string; variables: Record<string, unknown> }>;
  /** subscriptions started over graphql-transport-ws */
  subscriptions: { started: number };
  stop(): Promise<void>;
}

export function subgraphSchema(name: Name): GraphQLSchema {
  return buildSubgraphSchema([{ typeDefs: parse(SUBGRAPH_SDL[name]), resolvers: resolvers[name] as never }]);
}

export function startSubgraph(name: Name): Promise<RunningSubgraph> {
  return serveSubgraph(name, subgraphSchema(name));
}

/** Serves a subgraph schema over HTTP (POST JSON) and graphql-transport-ws on port 0. */
export async function serveSubgraph(name: string, schema: GraphQLSchema): Promise<RunningSubgraph> {
  const received: RunningSubgraph['received'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        query: string;
        variables?: Record<string, unknown>;
      };
      received.push({ headers: req.headers, query: body.query, variables: body.variables ?? {} });
      const document = parse(body.query);
      const errors = validate(schema, document);
      const result =
        errors.length > 0 ? { errors } : await execute({ schema, document, variableValues: body.variables });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result));
    });
  });
  const subscriptions = { started: 0 };
  const sockets = new WebSocketServer({ server });
  const wsServer = useServer(
    {
      schema,
      execute,
      subscribe,
      onSubscribe: () => {
        subscriptions.started++;
      },
    },
    sockets,
  );
  const port = await listen(server, 0, '127.0.0.1');
  return {
    name,
    url: `http://127.0.0.1:${port}/graphql`,
    received,
    subscriptions,
    stop: async () => {
      await wsServer.dispose();
      await close(server);
    },
  };
}

export async function startSubgraphs(): Promise<Record<Name, RunningSubgraph>> {
  const names: Name[] = ['accounts', 'inventory', 'products', 'reviews'];
  const started = await Promise.all(names.map(startSubgraph));
  return Object.fromEntries(started.map((s) => [s.name, s])) as Record<Name, RunningSubgraph>;
}

/** The client-facing schema the composition of the four gives. */
export const SUPERGRAPH_SDL = `
  type Query { me: User users: [User] topProducts(first: Int = 5): [Product] }
  type Subscription { reviewAdded: Review }
  type User { id: ID! name: String username: String reviews: [Review] }
  type Product { upc: String! name: String price: Int weight: Int inStock: Boolean shippingEstimate: Int reviews: [Review] }
  type Review { id: ID! body: String author: User product: Product }
`;

const one = (
  subgraph: string,
  extra: Partial<{ requires: Record<string, string>; provides: Record<string, string> }> = {},
) => ({ resolvedBy: [subgraph], requires: extra.requires ?? {}, provides: extra.provides ?? {} });

/** The supergraph composition gives for the four, built by hand (composition is tested on its own). */
export function benchmarkSupergraph(
  urls: Record<Name, string>,
  overrides: Partial<Record<Name, Partial<Supergraph['subgraphs'][number]>>> = {},
): Supergraph {
  return {
    schema: buildSchema(SUPERGRAPH_SDL),
    sdl: SUPERGRAPH_SDL,
    subgraphs: (Object.keys(urls) as Name[]).map((name) => ({
      name,
      url: urls[name],
      headers: {},
      subscriptionType: 'graphql-transport-ws',
      ...overrides[name],
    })),
    fields: {
      Query: { me: one('accounts'), users: one('accounts'), topProducts: one('products') },
      Subscription: { reviewAdded: one('reviews') },
      User: { id: one('accounts'), name: one('accounts'), username: one('accounts'), reviews: one('reviews') },
      Product: {
        upc: one('products'),
        name: one('products'),
        price: one('products'),
        weight: one('products'),
        inStock: one('inventory'),
        shippingEstimate: one('inventory', { requires: { inventory: 'price weight' } }),
        reviews: one('reviews'),
      },
      Review: {
        id: one('reviews'),
        body: one('reviews'),
        author: one('reviews', { provides: { reviews: 'username' } }),
        product: one('reviews'),
      },
    },
    entities: {
      User: { keys: { accounts: ['id'], reviews: ['id'] } },
      Product: { keys: { products: ['upc'], inventory: ['upc'], reviews: ['upc'] } },
      Review: { keys: { reviews: ['id'] } },
    },
  };
}
