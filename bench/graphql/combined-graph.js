// The combined-graph benchmark (issue 14): one GraphQL and one REST data source, both local, and
// the hand-written graphql-js server that answers the same query by calling the same sources.
const { createServer } = require('node:http');
const { buildSchema, execute, graphql, parse, validate } = require('graphql');
const { Agent } = require('undici');

/** The graph clients query: products from the GraphQL source, each product's stock from REST. */
exports.GRAPH_SDL = `
  type Query { products: [Product!]! }
  type Product { upc: String! name: String! price: Int! stock: Stock }
  type Stock { upc: String! count: Int! warehouse: String! }
`;
exports.GRAPH_QUERY = '{ products { upc name price stock { count warehouse } } }';

const SOURCE_SDL = `
  type Query { products: [Product!]! }
  type Product { upc: String! name: String! price: Int! }
`;
const products = Array.from({ length: 5 }, (_, i) => ({ upc: String(i), name: `Product ${i}`, price: 10 + i }));

/**
 * Both data sources on one port: GraphQL on /graphql, REST on /stock/<upc>. Answers are
 * memoised by request, so the sources cost little and the two servers under test are measured.
 */
function startSources(port) {
  const schema = buildSchema(SOURCE_SDL);
  const rootValue = { products: () => products };
  const answers = new Map();
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      const key = `${req.url}\u0000${body}`;
      let text = answers.get(key);
      if (text === undefined) {
        let result;
        if (req.url.startsWith('/stock/')) {
          const upc = decodeURIComponent(req.url.slice('/stock/'.length));
          result = { upc, count: 100 + Number(upc), warehouse: 'north' };
        } else {
          const { query, variables } = JSON.parse(body);
          result = await graphql({ schema, source: query, variableValues: variables, rootValue });
        }
        answers.set(key, (text = JSON.stringify(result)));
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  }).listen(port, '127.0.0.1', () => process.send?.('ready'));
}

/** The hand-written server: graphql-js resolvers calling the two sources over an undici pool set up as gw's. */
function startHandWritten(port, sourcesUrl) {
  const schema = buildSchema(exports.GRAPH_SDL);
  const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000, pipelining: 1 });
  const json = async (url, options) => {
    const { origin, pathname } = new URL(url);
    return (await agent.request({ origin, path: pathname, ...options })).body.json();
  };
  const rootValue = {
    products: async () =>
      (
        await json(`${sourcesUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ products { upc name price } }' }),
        })
      ).data.products,
  };
  schema.getType('Product').getFields().stock.resolve = (product) =>
    json(`${sourcesUrl}/stock/${encodeURIComponent(product.upc)}`, { method: 'GET' });
  // Parsed and validated documents are cached by query text, as gw caches them: the baseline does no avoidable work.
  const documents = new Map();
  const run = (query, variables) => {
    let document = documents.get(query);
    if (document === undefined) {
      const parsed = parse(query);
      const errors = validate(schema, parsed);
      if (errors.length > 0) return graphql({ schema, source: query, variableValues: variables, rootValue });
      documents.set(query, (document = parsed));
    }
    return execute({ schema, document, variableValues: variables, rootValue });
  };
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      const { query, variables } = JSON.parse(body);
      const text = JSON.stringify(await run(query, variables));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  }).listen(port, '127.0.0.1', () => process.send?.('ready'));
}

/** The gw definition of the same graph. */
exports.combinedGraphApi = (sourcesUrl) => ({
  api_id: 'udg',
  name: 'udg',
  use_keyless: true,
  proxy: { listen_path: '/udg', target_url: sourcesUrl, strip_listen_path: true },
  graphql: {
    enabled: true,
    execution_mode: 'executionEngine',
    version: '2',
    schema: exports.GRAPH_SDL,
    engine: {
      field_configs: [],
      data_sources: [
        {
          kind: 'GraphQL',
          name: 'catalogue',
          internal: false,
          root_fields: [{ type: 'Query', fields: ['products'] }],
          config: { url: `${sourcesUrl}/graphql`, method: 'POST', headers: {} },
        },
        {
          kind: 'REST',
          name: 'stock',
          internal: false,
          root_fields: [{ type: 'Product', fields: ['stock'] }],
          config: { url: `${sourcesUrl}/stock/{{.object.upc}}`, method: 'GET', headers: {}, query: [], body: '' },
        },
      ],
    },
  },
});

if (require.main === module) {
  if (process.env.ROLE === 'sources') startSources(Number(process.env.PORT));
  else startHandWritten(Number(process.env.PORT), process.env.SOURCES_URL);
}
