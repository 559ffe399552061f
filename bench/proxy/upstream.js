// The benchmark upstream: 200 with a 40-byte JSON body (docs/performance.md#proxy-rest).
const { createServer } = require('node:http');

const body = Buffer.from('{"ok":true,"msg":"hello from upstream!"}');
createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
