import { strict as assert } from 'node:assert';
import http2 from 'node:http2';
import { status as GrpcCode } from '@grpc/grpc-js';
import { AnalyticsStore } from '../../../services/analytics/lib/analytics-store';
import { createTestPki, type Issued, type TestPki } from '../../support/certificates';
import { eventually } from '../../support/eventually';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../../support/gateway-fixture';
import { http } from '../../support/http';
import {
  ECHO_SERVICE,
  echoClient,
  startGrpcService,
  type EchoClient,
  type GrpcService,
} from '../../support/grpc-service';

const method = (name: string) => `/${ECHO_SERVICE}/${name}`;

/** A gRPC API: every call to the Echo service at `domain`, sent on over cleartext HTTP/2. */
function grpcApi(apiId: string, domain: string, service: GrpcService, extra: Record<string, unknown> = {}) {
  const definition = apiDefinition(apiId, '/', `h2c://${service.address}`, { domain, ...extra });
  (definition.proxy as Record<string, unknown>).strip_listen_path = false;
  return definition;
}

/** A gRPC message frame: not compressed, 4-byte length, then the message. */
function frame(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

/** An EchoRequest {text, amount} in protobuf wire form (field 1 string, field 2 varint). */
function echoRequest(text: string, amount: number): Buffer {
  const varint: number[] = [];
  for (let rest = amount; ; rest >>>= 7) {
    if (rest < 0x80) {
      varint.push(rest);
      break;
    }
    varint.push((rest & 0x7f) | 0x80);
  }
  const bytes = Buffer.from(text);
  return Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes, Buffer.from([0x10, ...varint])]);
}

/**
 * One gRPC call by hand over node:http2 with the given `grpc-timeout` and no deadline of the
 * client's own: what the gateway answers is all the caller sees.
 */
function rawCall(url: string, authority: string, path: string, body: Buffer, grpcTimeout: string) {
  return new Promise<{ headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders; ms: number }>(
    (resolve, reject) => {
      const started = Date.now();
      const session = http2.connect(url);
      session.on('error', reject);
      const stream = session.request({
        ':method': 'POST',
        ':path': path,
        ':authority': authority,
        'content-type': 'application/grpc',
        te: 'trailers',
        'grpc-timeout': grpcTimeout,
      });
      let headers: http2.IncomingHttpHeaders = {};
      let trailers: http2.IncomingHttpHeaders = {};
      stream.on('response', (received) => (headers = received));
      stream.on('trailers', (received) => (trailers = received));
      stream.on('data', () => {});
      stream.on('close', () => {
        session.close();
        resolve({ headers, trailers, ms: Date.now() - started });
      });
      stream.on('error', reject);
      stream.end(frame(body));
    },
  );
}

/** grpc-status and grpc-message wherever the answer put them (trailers, or the only header block). */
const statusOf = (answer: { headers: http2.IncomingHttpHeaders; trailers: http2.IncomingHttpHeaders }) => ({
  code: answer.trailers['grpc-status'] ?? answer.headers['grpc-status'],
  message: answer.trailers['grpc-message'] ?? answer.headers['grpc-message'],
});

describe('gRPC through the gateway (h2c on the gateway port, h2 on its TLS port, h2c upstream)', function () {
  this.timeout(30_000);
  let pki: TestPki;
  let gatewayCert: Issued;
  let service: GrpcService;
  let gw: GatewayFixture;
  let gatewayAddress: string;
  const clients: EchoClient[] = [];
  /** a client of the gateway's plain port calling the API at `domain` */
  const client = (domain: string) => {
    const made = echoClient(gatewayAddress, { authority: domain });
    clients.push(made);
    return made;
  };
  const gwApi = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${gw.node.gatewayUrl}/gw${path}`, { ...options, headers: gw.node.gwHeaders });
  const createKey = async (apiId: string, session: Record<string, unknown> = {}) => {
    const res = await gwApi('/keys', {
      method: 'POST',
      body: {
        rate: 100,
        per: 60,
        expires: 0,
        quota_max: -1,
        access_rights: { [apiId]: { api_id: apiId, versions: ['Default'] } },
        ...session,
      },
    });
    assert.equal(res.status, 200, res.text);
    return res.json.key as string;
  };
  const records = (apiId: string) => new AnalyticsStore(gw.node.runtime.database()).rawRecords('', apiId);

  before(async () => {
    pki = createTestPki();
    gatewayCert = pki.issue('gateway', { dns: ['localhost'], ips: ['127.0.0.1'] });
    service = await startGrpcService();
    gw = await startGatewayFixture({
      gatewayH2c: true,
      gatewayTlsPort: 0,
      gatewayTlsCertFile: gatewayCert.certFile,
      gatewayTlsKeyFile: gatewayCert.keyFile,
      analyticsFlushInterval: 0.05,
    });
    gatewayAddress = gw.node.gatewayUrl.replace('http://', '');
    await gw.addApi(
      grpcApi('grpc-open', 'open.test', service, {
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: { hard_timeouts: [{ path: method('Slow'), method: 'POST', timeout: 1 }] },
        }),
      }),
    );
    await gw.addApi(grpcApi('grpc-keyed', 'keyed.test', service, { use_keyless: false }));
    await gw.addApi(
      grpcApi('grpc-header', 'header.test', service, { use_keyless: false, auth: { auth_header_name: 'x-api-key' } }),
    );
    await gw.addApi(
      grpcApi('grpc-rules', 'rules.test', service, {
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            black_list: [{ path: method('Expand'), method_actions: { POST: { action: 'no_action' } } }],
            rate_limit: [{ path: method('Collect'), method: 'POST', enabled: true, rate: 1, per: 60 }],
          },
        }),
      }),
    );
    // Served once a call reaches the service through it.
    await eventually(async () => {
      const { status } = await client('open.test').unary({ text: 'ready' });
      assert.equal(status.code, GrpcCode.OK, status.details);
    }, 5000);
  });
  after(async () => {
    for (const made of clients) made.close();
    await gw?.stop();
    await service?.close();
    pki?.cleanup();
  });

  describe('every kind of call, end to end', () => {
    it('unary: the reply, the initial metadata and the trailing metadata come through', async () => {
      const outcome = await client('open.test').unary({ text: 'hello' }, { metadata: { 'x-reply-trailer': 'kept' } });
      assert.equal(outcome.status.code, GrpcCode.OK, outcome.status.details);
      assert.deepEqual(outcome.replies, [{ text: 'hello', index: 0 }]);
      assert.equal(outcome.headers['x-echo-initial'], 'yes');
      assert.deepEqual(outcome.status.trailers, { 'x-echo-method': 'Unary', 'x-reply-trailer': 'kept' });
      const received = service.calls.at(-1)!;
      assert.equal(received.method, 'Unary');
      assert.equal(received.metadata['x-reply-trailer'], 'kept');
    });

    it("unary: the upstream's own error status and its trailing metadata reach the client", async () => {
      const outcome = await client('open.test').unary({ text: 'fail' });
      assert.equal(outcome.status.code, GrpcCode.NOT_FOUND);
      assert.equal(outcome.status.details, 'no such echo');
      assert.equal(outcome.status.trailers['x-echo-method'], 'Unary');
    });

    it('server streaming: every reply, then the status', async () => {
      const outcome = await client('open.test').expand({ text: 'item', amount: 50 });
      assert.equal(outcome.status.code, GrpcCode.OK, outcome.status.details);
      assert.deepEqual(
        outcome.replies,
        Array.from({ length: 50 }, (_, index) => ({ text: `item ${index}`, index })),
      );
      assert.equal(outcome.status.trailers['x-echo-method'], 'Expand');
    });

    it('client streaming: every request reaches the service', async () => {
      const texts = Array.from({ length: 30 }, (_, i) => `t${i}`);
      const outcome = await client('open.test').collect(texts.map((text) => ({ text })));
      assert.equal(outcome.status.code, GrpcCode.OK, outcome.status.details);
      assert.deepEqual(outcome.replies, [{ text: texts.join(' '), index: 30 }]);
      assert.equal(outcome.status.trailers['x-echo-method'], 'Collect');
    });

    it('bidirectional: each request is answered before the next is sent', async () => {
      const outcome = await client('open.test').chat([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
      assert.equal(outcome.status.code, GrpcCode.OK, outcome.status.details);
      assert.deepEqual(outcome.replies, [
        { text: 'echo a', index: 0 },
        { text: 'echo b', index: 1 },
        { text: 'echo c', index: 2 },
      ]);
      assert.equal(outcome.status.trailers['x-echo-method'], 'Chat');
    });

    it('over TLS (ALPN h2) on the gateway TLS port: unary and bidirectional', async () => {
      const tlsPort = (gw.node.broker.getLocalService('proxy') as unknown as { tlsPort: number }).tlsPort;
      const overTls = echoClient(`127.0.0.1:${tlsPort}`, { ca: pki.ca.cert, authority: 'open.test' });
      clients.push(overTls);
      const unary = await overTls.unary({ text: 'secure' });
      assert.equal(unary.status.code, GrpcCode.OK, unary.status.details);
      assert.deepEqual(unary.replies, [{ text: 'secure', index: 0 }]);
      const chat = await overTls.chat([{ text: 'x' }, { text: 'y' }]);
      assert.equal(chat.status.code, GrpcCode.OK, chat.status.details);
      assert.deepEqual(
        chat.replies.map((reply) => reply.text),
        ['echo x', 'echo y'],
      );
      assert.equal(chat.status.trailers['x-echo-method'], 'Chat');
    });
  });

  describe('authentication from metadata', () => {
    it('no key: UNAUTHENTICATED, and the service is not called', async () => {
      const before = service.calls.length;
      const outcome = await client('keyed.test').unary({ text: 'who' });
      assert.equal(outcome.status.code, GrpcCode.UNAUTHENTICATED);
      assert.equal(outcome.status.details, 'Authorization field missing');
      assert.equal(service.calls.length, before);
    });

    it('a key in the `authorization` metadata is let through', async () => {
      const key = await createKey('grpc-keyed');
      const outcome = await client('keyed.test').unary({ text: 'me' }, { metadata: { authorization: key } });
      assert.equal(outcome.status.code, GrpcCode.OK, outcome.status.details);
      assert.deepEqual(outcome.replies, [{ text: 'me', index: 0 }]);
    });

    it("a key under the API's own auth header name is let through; an unknown one is refused", async () => {
      const key = await createKey('grpc-header');
      const good = await client('header.test').expand({ text: 'k', amount: 2 }, { metadata: { 'x-api-key': key } });
      assert.equal(good.status.code, GrpcCode.OK, good.status.details);
      assert.equal(good.replies.length, 2);
      const bad = await client('header.test').unary({ text: 'k' }, { metadata: { 'x-api-key': 'not-a-key' } });
      assert.equal(bad.status.code, GrpcCode.PERMISSION_DENIED);
    });

    it("a key over its rate: RESOURCE_EXHAUSTED with the gateway's message", async () => {
      const key = await createKey('grpc-keyed', { rate: 2, per: 60 });
      const codes: number[] = [];
      for (let i = 0; i < 3; i++)
        codes.push((await client('keyed.test').unary({ text: 'r' }, { metadata: { authorization: key } })).status.code);
      assert.deepEqual(codes, [GrpcCode.OK, GrpcCode.OK, GrpcCode.RESOURCE_EXHAUSTED]);
      const refused = await client('keyed.test').unary({ text: 'r' }, { metadata: { authorization: key } });
      assert.equal(refused.status.details, 'Rate Limit Exceeded');
    });

    it('a key past its quota: RESOURCE_EXHAUSTED, not PERMISSION_DENIED', async () => {
      const key = await createKey('grpc-keyed', { quota_max: 1, quota_renewal_rate: 3600 });
      const first = await client('keyed.test').unary({ text: 'q' }, { metadata: { authorization: key } });
      assert.equal(first.status.code, GrpcCode.OK, first.status.details);
      const second = await client('keyed.test').unary({ text: 'q' }, { metadata: { authorization: key } });
      assert.equal(second.status.code, GrpcCode.RESOURCE_EXHAUSTED);
      assert.equal(second.status.details, 'Quota exceeded');
    });
  });

  describe('endpoint rules on /package.Service/Method paths', () => {
    it('a blocked method is PERMISSION_DENIED; the others still work', async () => {
      const blocked = await client('rules.test').expand({ text: 'b', amount: 1 });
      assert.equal(blocked.status.code, GrpcCode.PERMISSION_DENIED);
      assert.equal(blocked.status.details, 'Requested endpoint is forbidden');
      assert.equal((await client('rules.test').unary({ text: 'ok' })).status.code, GrpcCode.OK);
    });

    it("a method's own rate limit turns into RESOURCE_EXHAUSTED for that method only", async () => {
      const first = await client('rules.test').collect([{ text: 'one' }]);
      assert.equal(first.status.code, GrpcCode.OK, first.status.details);
      const second = await client('rules.test').collect([{ text: 'two' }]);
      assert.equal(second.status.code, GrpcCode.RESOURCE_EXHAUSTED);
      assert.equal((await client('rules.test').unary({ text: 'still' })).status.code, GrpcCode.OK);
    });
  });

  describe('deadlines and failures', () => {
    it('a deadline that passes while the service works: DEADLINE_EXCEEDED at the client', async () => {
      const outcome = await client('open.test').slow({ text: 'late', amount: 5000 }, { deadlineMs: 300 });
      assert.equal(outcome.status.code, GrpcCode.DEADLINE_EXCEEDED);
    });

    it('grpc-timeout bounds how long the gateway waits for the service', async () => {
      const answer = await rawCall(gw.node.gatewayUrl, 'open.test', method('Slow'), echoRequest('late', 5000), '200m');
      assert.equal(answer.headers[':status'], 200);
      assert.deepEqual(statusOf(answer), {
        code: String(GrpcCode.DEADLINE_EXCEEDED),
        message: 'Upstream service reached hard timeout.',
      });
      assert.ok(
        answer.ms < 800,
        `answered after ${answer.ms} ms, not at the 200 ms deadline (the hard timeout is 1 s)`,
      );
    });

    it('a deadline already passed is DEADLINE_EXCEEDED without calling the service', async () => {
      const before = service.calls.length;
      const answer = await rawCall(gw.node.gatewayUrl, 'open.test', method('Unary'), echoRequest('now', 0), '0m');
      assert.deepEqual(statusOf(answer), {
        code: String(GrpcCode.DEADLINE_EXCEEDED),
        message: 'Upstream service reached hard timeout.',
      });
      assert.equal(service.calls.length, before);
    });

    it("the API's hard timeout on a method, with no deadline: DEADLINE_EXCEEDED", async () => {
      const outcome = await client('open.test').slow({ text: 'late', amount: 5000 });
      assert.equal(outcome.status.code, GrpcCode.DEADLINE_EXCEEDED);
      assert.equal(outcome.status.details, 'Upstream service reached hard timeout.');
    });

    it('a service that dies mid-stream: the replies sent, then UNAVAILABLE, not a hang', async () => {
      const outcome = await client('open.test').collapse({ text: 'going', amount: 3 });
      assert.deepEqual(outcome.replies, [
        { text: 'going 0', index: 0 },
        { text: 'going 1', index: 1 },
        { text: 'going 2', index: 2 },
        { text: 'last words', index: 3 },
      ]);
      assert.equal(outcome.status.code, GrpcCode.UNAVAILABLE, outcome.status.details);
      assert.equal(outcome.status.details, 'There was a problem proxying the request');
      // The gateway keeps serving: a new connection to the service for the next call.
      const after = await client('open.test').unary({ text: 'after' });
      assert.equal(after.status.code, GrpcCode.OK, after.status.details);
    });
  });

  // After the calls above (a suite's own tests run before its nested suites).
  describe('analytics', () => {
    it('analytics: one record per call, under its method path, refusals under their HTTP status', async () => {
      await eventually(
        async () => {
          const open = await records('grpc-open');
          const paths = new Set(open.map((record) => record.raw_path));
          for (const name of ['Unary', 'Expand', 'Collect', 'Chat', 'Slow', 'Collapse'])
            assert.ok(paths.has(method(name)), `a record for ${name}: ${[...paths].join(', ')}`);
          const unary = open.find((record) => record.raw_path === method('Unary'))!;
          assert.equal(unary.method, 'POST');
          assert.equal(unary.path, method('Unary'));
          assert.equal(unary.response_code, 200);
          const collapsed = open.find((record) => record.raw_path === method('Collapse'))!;
          assert.equal(collapsed.response_code, 502, 'a stream the service broke off is recorded as 502');
          const keyed = (await records('grpc-keyed')).map((record) => record.response_code);
          assert.ok(keyed.includes(401), `an UNAUTHENTICATED call recorded as 401: ${keyed.join(',')}`);
          assert.ok(keyed.includes(429), `a RESOURCE_EXHAUSTED call recorded as 429: ${keyed.join(',')}`);
        },
        5000,
        100,
      );
    });
  });
});
