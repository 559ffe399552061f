// The gRPC upstream of bench:proxy's gRPC rows: one unary method, /bench.Bench/Echo, answering
// every call with the same 40-byte message (the REST upstream's body size). The messages are
// raw bytes (identity serializers): no proto to load, nothing decoded, as the REST upstream
// decodes nothing. GRPC_SERVER=grpc-js (the default) serves it with @grpc/grpc-js;
// GRPC_SERVER=http2 with a minimal node:http2 server writing the same answer by hand (a
// 5-byte-framed message, then grpc-status 0 in trailers), to tell grpc-js's own cost apart.
// A protobuf message with one string field (tag 1, 38 bytes): 40 bytes on the wire.
const REPLY = Buffer.concat([Buffer.from([0x0a, 38]), Buffer.from('hello from upstream!'.padEnd(38, '.'))]);
const METHOD = '/bench.Bench/Echo';
const port = Number(process.env.PORT);
const ready = () => process.send?.('ready');

if (process.env.GRPC_SERVER === 'http2') {
  const { createServer } = require('node:http2');
  const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, REPLY.length]), REPLY]);
  const server = createServer();
  server.on('stream', (stream, headers) => {
    stream.resume();
    stream.on('end', () => {
      if (headers[':path'] !== METHOD) {
        stream.respond(
          { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' },
          { endStream: true },
        );
        return;
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(framed);
    });
  });
  server.listen(port, '127.0.0.1', ready);
} else {
  const grpc = require('@grpc/grpc-js');
  const identity = (buffer) => buffer;
  const server = new grpc.Server();
  server.addService(
    {
      Echo: {
        path: METHOD,
        requestStream: false,
        responseStream: false,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      },
    },
    { Echo: (_call, callback) => callback(null, REPLY) },
  );
  server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) throw err;
    ready();
  });
}
