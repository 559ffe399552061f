// The GraphQL benchmark upstream: graphql-js over node:http.
const { createServer } = require('node:http');
const { buildSchema, graphql } = require('graphql');
const { SDL } = require('./schema.js');

const schema = buildSchema(SDL);
const rootValue = {
  products: () =>
    Array.from({ length: 5 }, (_, i) => ({
      upc: String(i),
      name: `Product ${i}`,
      price: 10 + i,
      reviews: [{ id: `r${i}`, body: 'good', author: { id: 'u1', name: 'Ada' } }],
    })),
};
createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', async () => {
    const { query, variables } = JSON.parse(body);
    const result = await graphql({ schema, source: query, variableValues: variables, rootValue });
    const text = JSON.stringify(result);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
