import { strict as assert } from 'node:assert';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connectAsync as connectMqtt } from 'mqtt';
import { connect as connectNats, type Msg } from 'nats';
import { close, listen } from '../../lib/http/listen';
import { AnalyticsStore } from '../../services/analytics/lib/analytics-store';
import { createTenant, keylessApi } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { echoClient, startGrpcService, type EchoClient, type GrpcService } from '../support/grpc-service';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { STREAMS_TYPE, streamsDocument } from '../support/stream-apis';
import { SPAN_KIND, startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { TEST_METRICS_TOKEN, sampleValue, scrape } from '../support/prometheus';
import { accounts, products } from '../unit/graphql/federation/benchmark-subgraphs';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A traceparent a client's own tracer would send: a fresh trace, sampled. */
const clientContext = () => {
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};
/** `00-<trace>-<parent>-<flags>` */
const parseTraceparent = (value: unknown) => {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(value));
  assert.ok(match, `not a traceparent: ${String(value)}`);
  return { traceId: match[1], parentId: match[2] };
};

const FAST_EXPORT = { otelBatchTimeout: 0.05, otelConnectionTimeout: 2 };

describe('OpenTelemetry tracing through the gateway', function () {
  this.timeout(60_000);

  describe('exporting OTLP/HTTP protobuf to a collector, W3C trace context', () => {
    let receiver: OtlpReceiver;
    let gw: GatewayFixture;
    const serverSpanOf = (traceId: string, route: string) =>
      receiver.waitForSpan(
        (s) => s.traceId === traceId && s.kind === SPAN_KIND.server && s.attributes['http.route'] === route,
      );
    /**
     * A stream of a tenant of its own relaying what its http_server input gets to `output`, and a
     * request posting `body` to it with a client's trace context: the trace its message joins.
     */
    const relayTraced = async (listenPath: string, output: Record<string, unknown>, body = 'hello') => {
      const tenant = await createTenant(gw.node.dashboardUrl, gw.node.adminHeaders, `Traced ${listenPath}`);
      const created = await http(`${gw.node.dashboardUrl}/api/apis/streams`, {
        method: 'POST',
        headers: { ...tenant.headers, ...STREAMS_TYPE },
        body: JSON.stringify(
          streamsDocument(`Relay ${listenPath}`, listenPath, {
            relay: { input: { http_server: { path: '/in', sync_response: { status: '200' } } }, output },
          }),
        ),
      });
      assert.equal(created.status, 200, created.text);
      const client = clientContext();
      await eventually(async () => {
        const res = await gw.call(`${listenPath}in`, {
          method: 'POST',
          body,
          headers: { traceparent: client.traceparent },
        });
        assert.equal(res.status, 200);
      }, 5000);
      return client;
    };

    before(async () => {
      receiver = await startOtlpReceiver();
      gw = await startGatewayFixture({
        otelEndpoint: receiver.httpUrl,
        otelTraceIdHeader: true,
        gatewayMetrics: true,
        metricsToken: TEST_METRICS_TOKEN,
        ...FAST_EXPORT,
      });
      await gw.addApi(apiDefinition('traced', '/traced/', gw.upstream.url));
      await gw.addApi(
        apiDefinition('keyed', '/keyed/', gw.upstream.url, {
          use_keyless: false,
          auth: { auth_header_name: 'authorization' },
        }),
      );
      await gw.addApi(
        apiDefinition('detailed', '/detailed/', gw.upstream.url, {
          use_keyless: false,
          auth: { auth_header_name: 'authorization' },
          detailed_tracing: true,
        }),
      );
      await gw.addApi(
        apiDefinition('limited', '/limited/', gw.upstream.url, { global_rate_limit: { rate: 1, per: 60 } }),
      );
    });
    after(async () => {
      await gw?.stop();
      await receiver?.close();
    });

    it("joins the client's trace: a server span below the client's, a client span below it, and the upstream's traceparent names that client span", async () => {
      const client = clientContext();
      const res = await gw.call('/traced/hello', { headers: { traceparent: client.traceparent } });
      assert.equal(res.status, 200);
      const sent = gw.upstream.received.at(-1)!;
      const upstreamContext = parseTraceparent(sent.headers.traceparent);
      assert.equal(upstreamContext.traceId, client.traceId);

      const server = await serverSpanOf(client.traceId, '/traced/');
      assert.equal(server.parentSpanId, client.spanId);
      assert.equal(server.name, 'GET /traced/');
      assert.equal(server.attributes['http.request.method'], 'GET');
      assert.equal(server.attributes['http.response.status_code'], 200);
      assert.equal(server.attributes['url.path'], '/traced/hello');
      assert.equal(server.attributes['gw.api.id'], 'traced');
      assert.equal(server.attributes['gw.api.name'], 'traced');
      assert.notEqual(server.status.code, 2);
      assert.equal(server.resource['service.name'], 'gw');

      const upstreamCall = await receiver.waitForSpan(
        (s) => s.traceId === client.traceId && s.kind === SPAN_KIND.client,
      );
      assert.equal(upstreamCall.parentSpanId, server.spanId);
      assert.equal(upstreamContext.parentId, upstreamCall.spanId);
      assert.equal(upstreamCall.attributes['http.response.status_code'], 200);
      assert.equal(upstreamCall.attributes['server.port'], gw.upstream.port);
      assert.equal(upstreamCall.attributes['url.full'], `${gw.upstream.url}/hello`);
      assert.equal(res.headers.get('x-gw-trace-id'), client.traceId);
      assert.ok(
        receiver.exports.every((type) => type === 'application/x-protobuf'),
        receiver.exports.join(),
      );
    });

    it('names the endpoint a request fell under in http.route and the span name, else the listen path', async () => {
      await gw.addApi(
        apiDefinition('routed', '/routed/', gw.upstream.url, {
          version_data: singleVersion({
            extended_paths: {
              transform_headers: [
                { path: '/items/special', method: 'GET', add_headers: { 'x-special': 'yes' } },
                { path: '/items/{id}', method: 'GET', add_headers: { 'x-item': 'yes' } },
              ],
            },
          }),
        }),
      );
      const routeOfCall = async (path: string, method = 'GET') => {
        const client = clientContext();
        const res = await gw.call(path, { method, headers: { traceparent: client.traceparent } });
        assert.equal(res.status, 200);
        return receiver.waitForSpan((s) => s.traceId === client.traceId && s.kind === SPAN_KIND.server);
      };
      const item = await routeOfCall('/routed/items/42');
      assert.equal(item.attributes['http.route'], '/routed/items/{id}');
      assert.equal(item.name, 'GET /routed/items/{id}');
      assert.equal((await routeOfCall('/routed/items/special')).attributes['http.route'], '/routed/items/special');
      assert.equal((await routeOfCall('/routed/items/42', 'POST')).attributes['http.route'], '/routed/');
      const other = await routeOfCall('/routed/elsewhere');
      assert.equal(other.attributes['http.route'], '/routed/');
      assert.equal(other.name, 'GET /routed/');
    });

    it('makes a retry on another target after a refused connection a client span of its own', async () => {
      // a port nothing listens on (bound, then closed) is the round robin's first target: it refuses
      // the connection and the request goes on to the upstream
      const closed = createServer();
      const refusingPort = await listen(closed, 0, '127.0.0.1');
      await close(closed);
      const refusing = `http://127.0.0.1:${refusingPort}`;
      await gw.addApi(
        apiDefinition('balanced', '/balanced/', refusing, {
          proxy: {
            listen_path: '/balanced/',
            strip_listen_path: true,
            target_url: refusing,
            enable_load_balancing: true,
            target_list: [refusing, gw.upstream.url],
          },
        }),
      );
      const client = clientContext();
      const res = await gw.call('/balanced/retried', { headers: { traceparent: client.traceparent } });
      assert.equal(res.status, 200);
      const refused = await receiver.waitForSpan(
        (s) =>
          s.traceId === client.traceId && s.kind === SPAN_KIND.client && s.attributes['server.port'] === refusingPort,
      );
      assert.equal(refused.status.code, 2);
      const retry = await receiver.waitForSpan(
        (s) =>
          s.traceId === client.traceId &&
          s.kind === SPAN_KIND.client &&
          s.attributes['server.port'] === gw.upstream.port,
      );
      assert.equal(retry.attributes['http.request.resend_count'], 1);
      assert.equal(retry.parentSpanId, refused.parentSpanId);
      const sent = gw.upstream.received.find((r) => r.url === '/retried')!;
      assert.equal(parseTraceparent(sent.headers.traceparent).parentId, retry.spanId);
    });

    it('starts a new trace for a request that carries none, and passes it upstream', async () => {
      const res = await gw.call('/traced/fresh');
      assert.equal(res.status, 200);
      const traceId = res.headers.get('x-gw-trace-id')!;
      assert.match(traceId, /^[0-9a-f]{32}$/);
      const sent = gw.upstream.received.find((r) => r.url === '/fresh')!;
      assert.equal(parseTraceparent(sent.headers.traceparent).traceId, traceId);
      const server = await serverSpanOf(traceId, '/traced/');
      assert.equal(server.parentSpanId, '');
    });

    it('marks a refused request with the refusing step: 401 by authentication, 429 by limits', async () => {
      const unauthorised = await gw.call('/keyed/x', { headers: { traceparent: clientContext().traceparent } });
      assert.equal(unauthorised.status, 401);
      const refused = await serverSpanOf(unauthorised.headers.get('x-gw-trace-id')!, '/keyed/');
      assert.equal(refused.status.code, 2);
      assert.equal(refused.attributes['gw.refused_by'], 'authentication');
      assert.equal(refused.attributes['http.response.status_code'], 401);
      assert.match(refused.status.message, /401 from the authentication step/);

      assert.equal((await gw.call('/limited/a')).status, 200);
      const limited = await gw.call('/limited/b');
      assert.equal(limited.status, 429);
      const throttled = await serverSpanOf(limited.headers.get('x-gw-trace-id')!, '/limited/');
      assert.equal(throttled.attributes['gw.refused_by'], 'limits');
      assert.equal(throttled.status.code, 2);
    });

    it('records no credential: no header value, no query string', async () => {
      const secret = `secret-${hex(8)}`;
      const res = await gw.call(`/keyed/x?authorization=${secret}q&api_key=${secret}k`, {
        headers: { authorization: `${secret}h`, cookie: `session=${secret}c` },
      });
      assert.equal(res.status, 403);
      const traceId = res.headers.get('x-gw-trace-id')!;
      await serverSpanOf(traceId, '/keyed/');
      const inTrace = receiver.spans.filter((s) => s.traceId === traceId);
      for (const span of inTrace)
        for (const [name, value] of Object.entries(span.attributes))
          assert.ok(!String(value).includes(secret), `${span.name} ${name} holds the credential`);
    });

    it('with detailed_tracing, gives each step of the chain a span, the refusing one in error', async () => {
      const res = await gw.call('/detailed/x');
      assert.equal(res.status, 401);
      const traceId = res.headers.get('x-gw-trace-id')!;
      const server = await serverSpanOf(traceId, '/detailed/');
      const step = await receiver.waitForSpan((s) => s.traceId === traceId && s.name === 'authentication');
      assert.equal(step.kind, SPAN_KIND.internal);
      assert.equal(step.parentSpanId, server.spanId);
      assert.equal(step.status.code, 2);
      assert.equal(step.attributes['gw.step.answered'], true);
      // an API without detailed_tracing has only the server and client spans
      const plain = await gw.call('/traced/plain');
      const plainTrace = plain.headers.get('x-gw-trace-id')!;
      await receiver.waitForSpan((s) => s.traceId === plainTrace && s.kind === SPAN_KIND.client);
      assert.deepEqual(
        receiver.spans.filter((s) => s.traceId === plainTrace && s.kind === SPAN_KIND.internal),
        [],
      );
    });

    it('traces the management APIs too: a server span per call, named by its route pattern', async () => {
      const client = clientContext();
      const res = await http(`${gw.node.gatewayUrl}/gw/apis/traced`, {
        headers: { ...gw.node.gwHeaders, traceparent: client.traceparent },
      });
      assert.equal(res.status, 200);
      const span = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.kind === SPAN_KIND.server);
      assert.equal(span.parentSpanId, client.spanId);
      assert.equal(span.attributes['gw.surface'], 'gateway');
      assert.match(String(span.attributes['http.route']), /^\/gw\/apis\/:\w+$/);
      assert.equal(span.attributes['http.response.status_code'], 200);
      for (const value of Object.values(span.attributes)) assert.ok(!String(value).includes(gw.node.config.secret));

      // a key travels in the path of the key operations: no attribute of their span holds it
      const created = await http(`${gw.node.gatewayUrl}/gw/keys`, {
        method: 'POST',
        headers: gw.node.gwHeaders,
        body: { access_rights: { keyed: { api_id: 'keyed', versions: ['Default'] } } },
      });
      assert.equal(created.status, 200, created.text);
      const key = created.json.key as string;
      const read = clientContext();
      const keyRead = await http(`${gw.node.gatewayUrl}/gw/keys/${key}`, {
        headers: { ...gw.node.gwHeaders, traceparent: read.traceparent },
      });
      assert.equal(keyRead.status, 200, keyRead.text);
      const keySpan = await receiver.waitForSpan((s) => s.traceId === read.traceId && s.kind === SPAN_KIND.server);
      assert.equal(keySpan.attributes['http.route'], '/gw/keys/:key');
      assert.equal(keySpan.name, 'GET /gw/keys/:key');
      for (const value of [keySpan.name, ...Object.values(keySpan.attributes)])
        assert.ok(!String(value).includes(key), `the key in ${String(value)}`);

      const refused = clientContext();
      const denied = await http(`${gw.node.dashboardUrl}/api/apis`, {
        headers: { authorization: 'not-a-key', traceparent: refused.traceparent },
      });
      assert.equal(denied.status, 403);
      const deniedSpan = await receiver.waitForSpan(
        (s) => s.traceId === refused.traceId && s.kind === SPAN_KIND.server,
      );
      assert.equal(deniedSpan.attributes['gw.surface'], 'dashboard');
      assert.equal(deniedSpan.status.code, 2);
    });

    it("puts a webhook delivery for a request's event in that request's trace", async () => {
      const tenant = await createTenant(gw.node.dashboardUrl, gw.node.adminHeaders, 'Traced hooks');
      const created = await http(`${gw.node.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: {
          ...keylessApi('Hooked', '/hooked/', gw.upstream.url, { use_keyless: false }),
          hook_references: [
            {
              event_name: 'AuthFailure',
              hook: { name: 'inline', method: 'POST', target_path: `${gw.upstream.url}/hook?token=hook-secret` },
              event_timeout: 0,
            },
          ],
        },
      });
      assert.equal(created.status, 200, created.text);
      const client = clientContext();
      await eventually(async () => {
        const res = await gw.call('/hooked/x', {
          headers: { authorization: 'wrong-key', traceparent: client.traceparent },
        });
        assert.equal(res.status, 403);
      }, 5000);
      const delivery = await eventually(() => {
        const found = gw.upstream.received.find((r) => r.url.startsWith('/hook'));
        assert.ok(found, 'the webhook got the event');
        return found;
      }, 10_000);
      const event = JSON.parse(delivery.body);
      assert.equal(event.event, 'AuthFailure');
      assert.equal(event.trace_headers, undefined, 'the trace context is not part of the event');
      const context = parseTraceparent(delivery.headers.traceparent);
      assert.equal(context.traceId, client.traceId);
      const span = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.name === 'webhook AuthFailure');
      assert.equal(span.kind, SPAN_KIND.client);
      assert.equal(span.parentSpanId, (await serverSpanOf(client.traceId, '/hooked/')).spanId);
      assert.equal(context.parentId, span.spanId);
      assert.equal(span.attributes['url.full'], `${gw.upstream.url}/hook`);
      assert.equal(span.attributes['http.response.status_code'], 200);
    });

    it("sends a stream message from a traced request to an http_client output in that request's trace", async () => {
      const client = await relayTraced('/streamed/', {
        http_client: { url: `${gw.upstream.url}/stream-out?token=s3cret`, verb: 'PUT' },
      });
      const sent = await eventually(() => {
        const found = gw.upstream.received.find((r) => r.url.startsWith('/stream-out'));
        assert.ok(found, 'the output sent the message');
        return found;
      }, 5000);
      const context = parseTraceparent(sent.headers.traceparent);
      assert.equal(context.traceId, client.traceId);
      const span = await receiver.waitForSpan(
        (s) => s.traceId === client.traceId && s.name === 'stream output http_client',
      );
      assert.equal(context.parentId, span.spanId);
      assert.equal(span.attributes['http.request.method'], 'PUT');
      assert.equal(span.attributes['url.full'], `${gw.upstream.url}/stream-out`);
    });

    it("sends a stream message from a traced request to a nats output as a producer span of that request's trace", async () => {
      const subject = `gw.traced.${randomUUID()}`;
      const nc = await connectNats({ servers: process.env.GW_TEST_NATS ?? 'nats://127.0.0.1:4222' });
      try {
        const subscription = nc.subscribe(subject, { max: 1 });
        const client = await relayTraced('/published/', {
          nats: { urls: [process.env.GW_TEST_NATS ?? 'nats://127.0.0.1:4222'], subject },
        });
        let received: Msg | undefined;
        for await (const message of subscription) received = message;
        assert.equal(received?.string(), 'hello');
        const context = parseTraceparent(received?.headers?.get('traceparent'));
        assert.equal(context.traceId, client.traceId);
        const span = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.name === `send ${subject}`);
        assert.equal(span.kind, SPAN_KIND.producer);
        assert.equal(context.parentId, span.spanId);
        assert.equal(span.attributes['messaging.system'], 'nats');
        assert.equal(span.attributes['messaging.destination.name'], subject);
      } finally {
        await nc.close();
      }
    });

    it("sends a stream message from a traced request to an mqtt output as a producer span of that request's trace", async () => {
      const topic = `gw/traced/${randomUUID()}`;
      const subscriber = await connectMqtt('mqtt://127.0.0.1:1883', { clientId: `gw-test-${randomUUID()}` });
      try {
        const received: string[] = [];
        subscriber.on('message', (_topic, payload) => received.push(payload.toString()));
        await subscriber.subscribeAsync(topic, { qos: 1 });
        const client = await relayTraced(
          '/published-mqtt/',
          { mqtt: { urls: ['mqtt://127.0.0.1:1883'], topic } },
          'over mqtt',
        );
        await eventually(async () => assert.deepEqual(received, ['over mqtt']), 5000);
        const span = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.name === `send ${topic}`);
        assert.equal(span.kind, SPAN_KIND.producer);
        assert.equal(span.attributes['messaging.system'], 'mqtt');
        assert.equal(span.attributes['messaging.destination.name'], topic);
      } finally {
        await subscriber.endAsync();
      }
    });

    it('counts the spans it exported in /metrics', async () => {
      await eventually(async () => {
        const samples = await scrape(`${gw.node.gatewayUrl}/metrics`);
        assert.ok((sampleValue(samples, 'gw_trace_spans_exported_total') ?? 0) > 0);
      }, 10_000);
    });

    it("names the trace in the request's analytics record", async () => {
      const res = await gw.call('/traced/recorded');
      const traceId = res.headers.get('x-gw-trace-id')!;
      await eventually(async () => {
        const records = await new AnalyticsStore(gw.node.runtime.database()).rawRecords('', 'traced');
        assert.ok(
          records.some((record) => record.tags.includes(`trace-id-${traceId}`)),
          JSON.stringify(records.map((r) => r.tags)),
        );
      }, 10_000);
    });
  });

  describe('GraphQL: a supergraph and a combined graph', () => {
    let receiver: OtlpReceiver;
    let gw: GatewayFixture;
    before(async () => {
      receiver = await startOtlpReceiver();
      gw = await startGatewayFixture({ otelEndpoint: receiver.httpUrl, otelTraceIdHeader: true, ...FAST_EXPORT });
      gw.upstream.respondWith((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            req.url === '/accounts'
              ? { data: { me: { username: 'ada' } } }
              : req.url === '/users/7'
                ? { id: '7', name: 'Ada' }
                : { data: { topProducts: [{ upc: '1' }] } },
          ),
        );
      });
      await gw.addApi(
        apiDefinition('shop', '/shop/', gw.upstream.url, {
          graphql: {
            enabled: true,
            execution_mode: 'supergraph',
            supergraph: {
              subgraphs: [
                { name: 'accounts', url: `${gw.upstream.url}/accounts`, sdl: accounts },
                { name: 'products', url: `${gw.upstream.url}/products`, sdl: products },
              ],
            },
          },
        }),
      );
    });
    after(async () => {
      await gw?.stop();
      await receiver?.close();
    });

    it('makes each data-source call of a combined graph a client span, its context sent to the data source', async () => {
      await gw.addApi(
        apiDefinition('graph', '/graph/', '', {
          graphql: {
            enabled: true,
            execution_mode: 'executionEngine',
            version: '2',
            schema: 'type Query { user(id: ID!): User } type User { id: ID! name: String }',
            engine: {
              field_configs: [],
              data_sources: [
                {
                  kind: 'REST',
                  name: 'users',
                  root_fields: [{ type: 'Query', fields: ['user'] }],
                  config: { url: `${gw.upstream.url}/users/{{.arguments.id}}`, method: 'GET' },
                },
              ],
            },
          },
        }),
      );
      const client = clientContext();
      const res = await gw.call('/graph/', {
        method: 'POST',
        headers: { traceparent: client.traceparent },
        body: { query: '{ user(id: "7") { name } }' },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { data: { user: { name: 'Ada' } } });
      const server = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.kind === SPAN_KIND.server);
      const call = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.name === 'data source GET');
      assert.equal(call.parentSpanId, server.spanId);
      assert.equal(call.attributes['http.request.method'], 'GET');
      const sent = gw.upstream.received.find((r) => r.url === '/users/7')!;
      assert.deepEqual(parseTraceparent(sent.headers.traceparent), { traceId: client.traceId, parentId: call.spanId });
    });

    it('makes each subgraph fetch a client span of the request, its context sent to that subgraph', async () => {
      const client = clientContext();
      const res = await gw.call('/shop/', {
        method: 'POST',
        headers: { traceparent: client.traceparent },
        body: { query: '{ me { username } topProducts { upc } }' },
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { data: { me: { username: 'ada' }, topProducts: [{ upc: '1' }] } });
      const server = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.kind === SPAN_KIND.server);
      for (const subgraph of ['accounts', 'products']) {
        const fetch = await receiver.waitForSpan(
          (s) => s.traceId === client.traceId && s.name === `subgraph ${subgraph}`,
        );
        assert.equal(fetch.kind, SPAN_KIND.client);
        assert.equal(fetch.parentSpanId, server.spanId);
        assert.equal(fetch.attributes['url.full'], `${gw.upstream.url}/${subgraph}`);
        const sent = gw.upstream.received.find((r) => r.url === `/${subgraph}`)!;
        assert.deepEqual(parseTraceparent(sent.headers.traceparent), {
          traceId: client.traceId,
          parentId: fetch.spanId,
        });
      }
    });
  });

  describe('the access log', () => {
    let receiver: OtlpReceiver;
    let gw: GatewayFixture;
    const lines: string[] = [];
    const original = { log: console.log, info: console.info };
    before(async () => {
      // the node's logger writes to the console: its lines are kept here instead of printed
      console.log = console.info = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
      receiver = await startOtlpReceiver();
      gw = await startGatewayFixture({
        otelEndpoint: receiver.httpUrl,
        accessLogs: true,
        logLevel: 'info',
        ...FAST_EXPORT,
      });
      await gw.addApi(
        apiDefinition('logged', '/logged/', gw.upstream.url, {
          use_keyless: false,
          auth: { auth_header_name: 'authorization' },
        }),
      );
      await gw.addApi(apiDefinition('open', '/open/', gw.upstream.url));
    });
    after(async () => {
      await gw?.stop();
      await receiver?.close();
      Object.assign(console, original);
    });

    it('has a line per request with its trace id, and never the key or the query string', async () => {
      const client = clientContext();
      const res = await gw.call('/open/hello?api_key=query-secret', { headers: { traceparent: client.traceparent } });
      assert.equal(res.status, 200);
      const line = await eventually(() => {
        const found = lines.find((l) => l.includes('prefix=access-log') && l.includes('api_id=open'));
        assert.ok(found, lines.join('\n'));
        return found;
      });
      assert.match(line, new RegExp(`trace_id=${client.traceId}`));
      assert.match(line, / status=200 /);
      assert.match(line, / method=GET /);
      assert.match(line, / path=\/open\/hello /);
      assert.match(line, / upstream_addr=http:\/\/127\.0\.0\.1:\d+ /);
      assert.doesNotMatch(line, /query-secret/);

      assert.equal((await gw.call('/logged/x', { headers: { authorization: 'the-secret-key' } })).status, 403);
      const refused = await eventually(() => {
        const found = lines.find((l) => l.includes('prefix=access-log') && l.includes('api_id=logged'));
        assert.ok(found);
        return found;
      });
      assert.match(refused, / status=403 /);
      assert.doesNotMatch(refused, /the-secret-key/);
    });
  });

  describe('a node with two gateway workers', () => {
    let receiver: OtlpReceiver;
    let gw: GatewayFixture;
    before(async () => {
      receiver = await startOtlpReceiver();
      gw = await startGatewayFixture({
        otelEndpoint: receiver.httpUrl,
        workers: '2',
        gatewayMetrics: true,
        metricsToken: TEST_METRICS_TOKEN,
        ...FAST_EXPORT,
      });
      await gw.addApi(apiDefinition('spread', '/spread/', gw.upstream.url));
    });
    after(async () => {
      await gw?.stop();
      await receiver?.close();
    });

    it('exports the spans of requests served by either worker, and counts them in the summed /metrics', async () => {
      const exported = async () =>
        sampleValue(await scrape(`${gw.node.gatewayUrl}/metrics`), 'gw_trace_spans_exported_total') ?? 0;
      // the count is the process's: other nodes of this run may have exported spans before
      const before = await exported();
      const traces: string[] = [];
      for (let i = 0; i < 12; i++) {
        const client = clientContext();
        traces.push(client.traceId);
        // a connection of its own, so the kernel may hand it to either worker
        const res = await fetch(`${gw.node.gatewayUrl}/spread/${i}`, {
          headers: { traceparent: client.traceparent, connection: 'close' },
        });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
      }
      for (const traceId of traces)
        await receiver.waitForSpan((s) => s.traceId === traceId && s.kind === SPAN_KIND.server);
      // a server and a client span per request, counted by the workers that exported them
      await eventually(async () => assert.ok((await exported()) - before >= 24), 10_000);
    });
  });

  describe('gRPC', () => {
    let receiver: OtlpReceiver;
    let gw: GatewayFixture;
    let service: GrpcService;
    let client: EchoClient;
    before(async () => {
      receiver = await startOtlpReceiver();
      service = await startGrpcService();
      gw = await startGatewayFixture({ otelEndpoint: receiver.httpUrl, gatewayH2c: true, ...FAST_EXPORT });
      const definition = apiDefinition('grpc-traced', '/', `h2c://${service.address}`, { domain: 'traced.test' });
      (definition.proxy as Record<string, unknown>).strip_listen_path = false;
      await gw.addApi(definition);
      client = echoClient(gw.node.gatewayUrl.replace('http://', ''), { authority: 'traced.test' });
    });
    after(async () => {
      client?.close();
      await gw?.stop();
      await service?.close();
      await receiver?.close();
    });

    it("passes the caller's trace context to the gRPC service as call metadata, below gw's client span", async () => {
      const caller = clientContext();
      const outcome = await client.unary({ text: 'hi', amount: 1 }, { metadata: { traceparent: caller.traceparent } });
      assert.equal(outcome.status.code, 0, outcome.status.details);
      const received = parseTraceparent(service.calls.at(-1)!.metadata.traceparent);
      assert.equal(received.traceId, caller.traceId);
      const server = await receiver.waitForSpan((s) => s.traceId === caller.traceId && s.kind === SPAN_KIND.server);
      assert.equal(server.parentSpanId, caller.spanId);
      const call = await receiver.waitForSpan((s) => s.traceId === caller.traceId && s.kind === SPAN_KIND.client);
      assert.equal(call.parentSpanId, server.spanId);
      assert.equal(received.parentId, call.spanId);
    });
  });

  describe('B3 propagation', () => {
    let receiver: OtlpReceiver;
    let gw: GatewayFixture;
    before(async () => {
      receiver = await startOtlpReceiver();
      gw = await startGatewayFixture({
        otelEndpoint: receiver.httpUrl,
        otelContextPropagation: 'b3multi',
        ...FAST_EXPORT,
      });
      await gw.addApi(apiDefinition('b3', '/b3/', gw.upstream.url));
    });
    after(async () => {
      await gw?.stop();
      await receiver?.close();
    });

    for (const [form, headers] of [
      ['the single b3 header', (t: string, s: string) => ({ b3: `${t}-${s}-1` })],
      ['the X-B3-* headers', (t: string, s: string) => ({ 'x-b3-traceid': t, 'x-b3-spanid': s, 'x-b3-sampled': '1' })],
    ] as const) {
      it(`reads the client's context from ${form} and sends X-B3-* upstream`, async () => {
        const client = clientContext();
        assert.equal(
          (await gw.call(`/b3/${form.length}`, { headers: headers(client.traceId, client.spanId) })).status,
          200,
        );
        const sent = gw.upstream.received.at(-1)!;
        assert.equal(sent.headers['x-b3-traceid'], client.traceId);
        const server = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.kind === SPAN_KIND.server);
        assert.equal(server.parentSpanId, client.spanId);
        const call = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.kind === SPAN_KIND.client);
        assert.equal(sent.headers['x-b3-spanid'], call.spanId);
        assert.equal(sent.headers['x-b3-sampled'], '1');
      });
    }
  });

  for (const exporter of ['http/json', 'grpc'] as const) {
    describe(`exporting with ${exporter}`, () => {
      let receiver: OtlpReceiver;
      let gw: GatewayFixture;
      before(async () => {
        receiver = await startOtlpReceiver();
        gw = await startGatewayFixture({
          otelExporter: exporter,
          otelEndpoint: exporter === 'grpc' ? receiver.grpcAddress : receiver.httpUrl,
          otelContextPropagation: 'tracecontext,b3',
          ...FAST_EXPORT,
        });
        await gw.addApi(apiDefinition('exported', '/exported/', gw.upstream.url));
      });
      after(async () => {
        await gw?.stop();
        await receiver?.close();
      });

      it('delivers the server and client spans of a request', async () => {
        const client = clientContext();
        assert.equal((await gw.call('/exported/x', { headers: { traceparent: client.traceparent } })).status, 200);
        const sent = gw.upstream.received.at(-1)!;
        // both propagators named: both forms go upstream
        assert.equal(parseTraceparent(sent.headers.traceparent).traceId, client.traceId);
        assert.match(String(sent.headers.b3), new RegExp(`^${client.traceId}-[0-9a-f]{16}-1$`));
        const server = await receiver.waitForSpan((s) => s.traceId === client.traceId && s.kind === SPAN_KIND.server);
        await receiver.waitForSpan((s) => s.traceId === client.traceId && s.parentSpanId === server.spanId);
        assert.ok(
          receiver.exports.includes(exporter === 'grpc' ? 'grpc' : 'application/json'),
          receiver.exports.join(),
        );
      });
    });
  }

  describe('a collector that is down or does not answer', () => {
    let silent: Server;
    let silentPort: number;
    const dropped = async (gw: GatewayFixture) =>
      sampleValue(await scrape(`${gw.node.gatewayUrl}/metrics`), 'gw_trace_spans_dropped_total', {
        reason: 'export_failed',
      }) ?? 0;
    before(async () => {
      // accepts connections and never answers
      silent = createServer(() => undefined);
      silentPort = await listen(silent, 0, '127.0.0.1');
    });
    after(async () => {
      silent.closeAllConnections();
      await close(silent);
    });

    for (const [what, endpoint] of [
      ['refuses connections', () => 'http://127.0.0.1:9'],
      ['never answers', () => `http://127.0.0.1:${silentPort}`],
    ] as const) {
      it(`${what}: clients are answered as usual, and the dropped spans are counted in /metrics`, async () => {
        const gw = await startGatewayFixture({
          otelEndpoint: endpoint(),
          gatewayMetrics: true,
          metricsToken: TEST_METRICS_TOKEN,
          otelBatchTimeout: 0.05,
          otelConnectionTimeout: 1.5,
        });
        // the count is the process's: other nodes of this run may have dropped spans before
        const before = await dropped(gw);
        await gw.addApi(apiDefinition('down', '/down/', gw.upstream.url));
        for (let i = 0; i < 20; i++) {
          const started = performance.now();
          const res = await gw.call(`/down/${i}`, { headers: { traceparent: clientContext().traceparent } });
          assert.equal(res.status, 200);
          // one that waited on the collector would take the export timeout (1.5 s) or more
          assert.ok(performance.now() - started < 1000, 'the request waited on the collector');
        }
        await eventually(async () => assert.ok((await dropped(gw)) > before), 15_000);
        await gw.stop();
      });
    }
  });
});
