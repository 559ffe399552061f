// The four subgraphs of the benchmark (@apollo/subgraph over node:http), one process, ports from
// PORTS="accounts,inventory,products,reviews". Their SDL is Federation v1, or Federation 2 with
// FEDERATION=2 (schema.js); the same resolvers serve both. Tells the parent when all listen.
const { createServer } = require('node:http');
const { buildSubgraphSchema } = require('@apollo/subgraph');
const { execute, parse, validate } = require('graphql');
const { users, products, inventory, reviews } = require('./data');
const { sdlOf } = require('./schema');

const SDL = sdlOf(process.env.FEDERATION);

const resolvers = {
  accounts: {
    Query: { me: () => users[0], users: () => users },
    User: { __resolveReference: (ref) => users.find((u) => u.id === ref.id) },
  },
  inventory: {
    Product: {
      __resolveReference: (ref) => ({ ...ref, ...inventory.find((i) => i.upc === ref.upc) }),
      shippingEstimate: (p) => (p.price > 1000 ? 0 : Math.round(p.weight * 0.5)),
    },
  },
  products: {
    Query: { topProducts: (_, args) => products.slice(0, args.first) },
    Product: { __resolveReference: (ref) => products.find((p) => p.upc === ref.upc) },
  },
  reviews: {
    Review: {
      author: (r) => ({
        __typename: 'User',
        id: r.authorID,
        username: users.find((u) => u.id === r.authorID).username,
      }),
      product: (r) => ({ __typename: 'Product', upc: r.upc }),
    },
    User: { reviews: (u) => reviews.filter((r) => r.authorID === u.id) },
    Product: { reviews: (p) => reviews.filter((r) => r.upc === p.upc) },
  },
};

function serve(name, port) {
  const schema = buildSubgraphSchema([{ typeDefs: parse(SDL[name]), resolvers: resolvers[name] }]);
  const documents = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      let document = documents.get(body.query);
      if (!document) {
        document = parse(body.query);
        const errors = validate(schema, document);
        if (errors.length > 0) return void res.end(JSON.stringify({ errors }));
        documents.set(body.query, document);
      }
      const result = await execute({
        schema,
        document,
        variableValues: body.variables,
        operationName: body.operationName,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result));
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

const names = ['accounts', 'inventory', 'products', 'reviews'];
const ports = process.env.PORTS.split(',').map(Number);
Promise.all(names.map((name, i) => serve(name, ports[i]))).then(() => process.send?.('ready'));
