// fast-gateway in front of the benchmark upstream: the Node peer gw is measured against.
const gateway = require('fast-gateway');

gateway({ routes: [{ prefix: '/api', target: `http://127.0.0.1:${process.env.UPSTREAM_PORT}` }] })
  .start(Number(process.env.PORT), '127.0.0.1')
  .then(() => process.send?.('ready'));
