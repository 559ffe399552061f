// The JWT row's key set (docs/performance.md#proxy-rest): serves JWKS_BODY at any path. A process
// of its own, because the benchmark's process is blocked while wrk runs and gw may refetch the
// set (its TTL) in the middle of a round.
const { createServer } = require('node:http');

const body = Buffer.from(process.env.JWKS_BODY ?? '{"keys":[]}');
createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/jwk-set+json', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
