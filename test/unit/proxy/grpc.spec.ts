import { strict as assert } from 'node:assert';
import { createServer, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { GatewayMessages, sendGatewayError } from '../../../services/proxy/pipeline/gateway-errors';
import { isGrpcRequest } from '../../../services/proxy/pipeline/grpc/grpc-request';
import { grpcTimeLeft, parseGrpcTimeout } from '../../../services/proxy/pipeline/grpc/grpc-timeout';
import { answeredStatus, encodeGrpcMessage } from '../../../services/proxy/pipeline/grpc/grpc-status';

describe('gRPC: requests, timeouts and the statuses of refusals', () => {
  it('a request is gRPC when its content-type is application/grpc, with or without a codec', () => {
    for (const type of ['application/grpc', 'application/grpc+proto', 'application/grpc+json', 'Application/GRPC'])
      assert.equal(isGrpcRequest({ headers: { 'content-type': type } }), true, type);
    for (const type of [undefined, 'application/json', 'application/grp', 'text/plain'])
      assert.equal(isGrpcRequest({ headers: { 'content-type': type } }), false, String(type));
  });

  it('grpc-timeout is read in each of its units, in milliseconds', () => {
    assert.equal(parseGrpcTimeout('2H'), 7_200_000);
    assert.equal(parseGrpcTimeout('3M'), 180_000);
    assert.equal(parseGrpcTimeout('5S'), 5000);
    assert.equal(parseGrpcTimeout('100m'), 100);
    assert.equal(parseGrpcTimeout('2500u'), 2.5);
    assert.equal(parseGrpcTimeout('3000000n'), 3);
    assert.equal(parseGrpcTimeout('99999999m'), 99_999_999);
    assert.equal(parseGrpcTimeout('0m'), 0);
  });

  it('a grpc-timeout not of the protocol form is no deadline', () => {
    for (const value of [undefined, '', '5', 'S', '5s', '1.5S', '-5S', '123456789m', ' 5S', ['5S', '1S']])
      assert.equal(parseGrpcTimeout(value), undefined, JSON.stringify(value));
  });

  it('what is left of a deadline counts from when the gateway received the call', () => {
    assert.equal(grpcTimeLeft('100m', 1000, 1030), 70);
    assert.equal(grpcTimeLeft('100m', 1000, 1100), 0);
    assert.equal(grpcTimeLeft('100m', 1000, 1150), -50);
    assert.equal(grpcTimeLeft(undefined, 1000, 1150), undefined);
  });

  it('grpc-message is percent-encoded UTF-8 (printable ASCII but % kept)', () => {
    assert.equal(encodeGrpcMessage('Rate Limit Exceeded'), 'Rate Limit Exceeded');
    assert.equal(encodeGrpcMessage('100% done'), '100%25 done');
    assert.equal(encodeGrpcMessage('café\n'), 'caf%C3%A9%0A');
  });

  describe('a refusal answered to a gRPC call over HTTP/2', () => {
    let server: http2.Http2Server;
    let url: string;
    let refusal: { status: number; message: string; headers?: Record<string, string>; midStream?: boolean };
    let answered: number[];

    before(async () => {
      server = http2.createServer((req, res) => {
        const response = res as unknown as ServerResponse;
        response.on('finish', () => answered.push(answeredStatus(response)));
        if (refusal.midStream) {
          // An answer under way: its headers and part of a message have gone.
          res.writeHead(200, { 'content-type': 'application/grpc' });
          res.write(Buffer.from([0, 0, 0, 0, 9, 1, 2]));
        }
        sendGatewayError(response, refusal.status, refusal.message, refusal.headers);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    beforeEach(() => (answered = []));

    /** The response's header block (whether the stream ended with it: trailers-only), body and trailers. */
    const call = (contentType: string) =>
      new Promise<{
        headers: http2.IncomingHttpHeaders;
        endedWithHeaders: boolean;
        body: string;
        trailers?: http2.IncomingHttpHeaders;
      }>((resolve, reject) => {
        const session = http2.connect(url);
        const stream = session.request({
          ':method': 'POST',
          ':path': '/gw.test.Echo/Unary',
          'content-type': contentType,
        });
        stream.end();
        let head: { headers: http2.IncomingHttpHeaders; endedWithHeaders: boolean } | undefined;
        let body = '';
        let trailers: http2.IncomingHttpHeaders | undefined;
        stream.on('trailers', (received) => (trailers = received));
        stream.on('response', (headers, flags) => {
          head = { headers, endedWithHeaders: (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0 };
        });
        stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
        stream.on('end', () => {
          session.close();
          resolve({ ...head!, body, trailers });
        });
        stream.on('error', reject);
      });

    const expectations: Array<[number, string, number]> = [
      [401, GatewayMessages.authFieldMissing, 16],
      [403, GatewayMessages.endpointForbidden, 7],
      [403, GatewayMessages.quotaExceeded, 8],
      [429, GatewayMessages.rateLimited, 8],
      [404, GatewayMessages.notFound, 12],
      [400, GatewayMessages.requestTooLarge, 3],
      [502, GatewayMessages.upstreamFailed, 14],
      [503, GatewayMessages.keyStoreUnavailable, 14],
      [504, GatewayMessages.upstreamTimeout, 4],
      [500, GatewayMessages.internal, 13],
      [418, 'a teapot', 2],
    ];
    for (const [status, message, code] of expectations) {
      it(`${status} "${message}" is grpc-status ${code}, trailers-only, recorded as ${status}`, async () => {
        refusal = { status, message };
        const answer = await call('application/grpc+proto');
        assert.equal(answer.headers[':status'], 200);
        assert.equal(answer.headers['content-type'], 'application/grpc');
        assert.equal(answer.headers['grpc-status'], String(code));
        assert.equal(answer.headers['grpc-message'], encodeGrpcMessage(message));
        assert.equal(answer.endedWithHeaders, true);
        assert.equal(answer.body, '');
        assert.deepEqual(answered, [status]);
      });
    }

    it('the headers of a refusal (a challenge, rate-limit counters) go along as metadata', async () => {
      refusal = { status: 429, message: GatewayMessages.rateLimited, headers: { 'x-ratelimit-remaining': '0' } };
      const answer = await call('application/grpc');
      assert.equal(answer.headers['grpc-status'], '8');
      assert.equal(answer.headers['x-ratelimit-remaining'], '0');
    });

    it('an answer under way when the upstream fails ends with the status in its trailers', async () => {
      refusal = { status: 502, message: GatewayMessages.upstreamFailed, midStream: true };
      const answer = await call('application/grpc');
      assert.equal(answer.headers[':status'], 200);
      assert.equal(answer.headers['grpc-status'], undefined);
      assert.equal(answer.endedWithHeaders, false);
      assert.equal(answer.trailers?.['grpc-status'], '14');
      assert.equal(answer.trailers?.['grpc-message'], GatewayMessages.upstreamFailed);
      assert.deepEqual(answered, [502]);
    });

    it('a call that is not gRPC still gets the JSON error', async () => {
      refusal = { status: 401, message: GatewayMessages.authFieldMissing };
      const answer = await call('application/json');
      assert.equal(answer.headers[':status'], 401);
      assert.equal(answer.headers['grpc-status'], undefined);
      assert.deepEqual(JSON.parse(answer.body), { error: GatewayMessages.authFieldMissing });
      assert.deepEqual(answered, [401]);
    });
  });

  it('over HTTP/1.1 a gRPC refusal is a 200 with the status in its headers', async () => {
    const server = createServer((req, res) => sendGatewayError(res, 401, GatewayMessages.authFieldMissing));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/gw.test.Echo/Unary`, {
        method: 'POST',
        headers: { 'content-type': 'application/grpc' },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('grpc-status'), '16');
      assert.equal(res.headers.get('grpc-message'), GatewayMessages.authFieldMissing);
      assert.equal(await res.text(), '');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
