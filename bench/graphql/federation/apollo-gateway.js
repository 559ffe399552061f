// @apollo/gateway 2.14 over node:http on PORT, composing the subgraphs at SUBGRAPHS
// ("name=url,…") with IntrospectAndCompose. No Apollo Server is installed, so this calls the
// gateway's executor directly with the request context it reads (parsed, validated document).
const { createHash } = require('node:crypto');
const { createServer } = require('node:http');
const { ApolloGateway, IntrospectAndCompose } = require('@apollo/gateway');
const { parse, validate } = require('graphql');

async function main() {
  const subgraphs = process.env.SUBGRAPHS.split(',').map((pair) => {
    const [name, url] = pair.split('=');
    return { name, url };
  });
  const gateway = new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({ subgraphs }),
    logger: { debug() {}, info() {}, warn: console.warn, error: console.error },
  });
  const { schema, executor } = await gateway.load();
  const documents = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      let entry = documents.get(request.query);
      if (!entry) {
        const document = parse(request.query);
        entry = {
          document,
          errors: validate(schema, document),
          hash: createHash('sha256').update(request.query).digest('hex'),
        };
        documents.set(request.query, entry);
      }
      let result;
      if (entry.errors.length > 0) result = { errors: entry.errors };
      else {
        const operation = entry.document.definitions.find(
          (d) =>
            d.kind === 'OperationDefinition' && (!request.operationName || d.name?.value === request.operationName),
        );
        result = await executor({
          request,
          document: entry.document,
          source: request.query,
          queryHash: entry.hash,
          operationName: request.operationName ?? operation?.name?.value ?? null,
          operation,
          schema,
          context: {},
          contextValue: {},
          cache: undefined,
          logger: console,
          metrics: {},
          overallCachePolicy: {
            restrict() {},
            replace() {},
            policyIfCacheable() {
              return null;
            },
          },
        });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result));
    });
  });
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
