// @graphql-hive/gateway (its runtime package, createGatewayRuntime) over node:http on PORT, serving
// the supergraph of the subgraphs at SUBGRAPHS ("name=url,…"). The supergraph SDL is composed here
// with @apollo/composition from the same SDL the subgraphs serve (Federation v1, or Federation 2
// with FEDERATION=2), so Hive plans over exactly the schema @apollo/gateway introspects.
const { createServer } = require('node:http');
const { parse } = require('graphql');
const { composeServices } = require('@apollo/composition');
const { createGatewayRuntime } = require('@graphql-hive/gateway-runtime');
const { sdlOf } = require('./schema');

const SDL = sdlOf(process.env.FEDERATION);

function composeSupergraph() {
  const services = process.env.SUBGRAPHS.split(',').map((pair) => {
    const [name, url] = pair.split('=');
    return { name, url, typeDefs: parse(SDL[name]) };
  });
  const { supergraphSdl, errors } = composeServices(services);
  if (errors && errors.length > 0) throw new Error(`composition failed: ${errors.map((e) => e.message).join('; ')}`);
  return supergraphSdl;
}

const gateway = createGatewayRuntime({
  supergraph: composeSupergraph(),
  graphqlEndpoint: '/graphql',
  landingPage: false,
  logging: false,
  maskedErrors: false,
});
const server = createServer(gateway);
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
// The runtime registers its own SIGTERM disposal and then keeps the process alive on the open
// server; exit outright so the benchmark's clean-up (and `timeout`) really stops this child.
process.on('SIGTERM', () => process.exit(0));
