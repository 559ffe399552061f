// The bare proxy of docs/performance.md#proxy-rest: a node:http server forwarding every request
// through one undici Pool, with no features. It is the Node limit a gateway can approach:
// whatever gw adds (routing, auth, limits, analytics) is measured against this. It forwards the
// method, the path and the headers (less the hop-by-hop ones, RFC 9110 §7.6.1), streams the body
// both ways, and keeps a pool of keep-alive connections to the upstream.
const { createServer } = require('node:http');
const { Pool } = require('undici');

const pool = new Pool(`http://127.0.0.1:${process.env.UPSTREAM_PORT}`, { connections: 64, keepAliveTimeout: 60_000 });
// undici refuses some of these as request headers; none of them may cross a proxy anyway.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'host',
]);

function endToEnd(headers) {
  const out = {};
  for (const name in headers) if (!HOP_BY_HOP.has(name)) out[name] = headers[name];
  return out;
}

createServer((req, res) => {
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  pool.stream(
    { method: req.method, path: req.url, headers: endToEnd(req.headers), body: hasBody ? req : null },
    // The upstream's answer is written straight into the client's response.
    ({ statusCode, headers }) => {
      res.writeHead(statusCode, endToEnd(headers));
      return res;
    },
    (err) => {
      if (!err) return;
      if (res.headersSent) res.destroy(err);
      else res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
    },
  );
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
