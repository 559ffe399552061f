import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { startPortal, startReceiver, type PortalApp } from '../../support/portal';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';
import { SseReader } from '../../support/stream-clients';
import { startUpstream, type Upstream } from '../../support/upstream';

/** http_client in and out, broker patterns, processors, sync responses and portal webhooks. */
describe('Streams: connectors and processors', () => {
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Upstream;
  const api = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
  const post = (path: string, body: string) => http(`${node.gatewayUrl}${path}`, { method: 'POST', body });

  async function streamsApi(name: string, listenPath: string, streams: Record<string, unknown>): Promise<string> {
    const res = await api('/apis/streams', {
      method: 'POST',
      body: JSON.stringify(streamsDocument(name, listenPath, streams)),
      headers: STREAMS_TYPE,
    });
    assert.equal(res.status, 200, res.text);
    await eventually(
      async () => assert.notEqual((await http(`${node.gatewayUrl}${listenPath}no-such-stream-path`)).status, 404),
      5000,
    );
    return res.json.ID as string;
  }

  before(async () => {
    node = await startTestNode({ streamsDrainTimeout: 1 });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Connectors');
    upstream = await startUpstream();
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('http_client input polls its URL (paced by a rate_limit resource) and each response becomes a message', async () => {
    let n = 0;
    upstream.respondWith((req, res) =>
      res.writeHead(200, { 'x-feed': 'prices' }).end(`{"tick":${n++},"verb":"${req.method}"}`),
    );
    await streamsApi('Poller', '/poller/', {
      poll: {
        input: {
          http_client: {
            url: `${upstream.url}/feed`,
            verb: 'GET',
            headers: { 'x-asked-by': 'gw' },
            rate_limit: 'slowly',
          },
        },
        pipeline: { processors: [{ mapping: 'root = this\nroot.feed = meta("x-feed")' }] },
        output: { http_server: { stream_path: '/sse' } },
        rate_limit_resources: [{ label: 'slowly', local: { count: 5, interval: '100ms' } }],
      },
    });
    const reader = await SseReader.open(`${node.gatewayUrl}/poller/sse`);
    try {
      const events = (await reader.waitFor(3)).slice(0, 3).map((e) => JSON.parse(e));
      assert.deepEqual(
        events.map((e) => [e.verb, e.feed]),
        [
          ['GET', 'prices'],
          ['GET', 'prices'],
          ['GET', 'prices'],
        ],
      );
      assert.ok(events[1].tick > events[0].tick);
      assert.equal(upstream.received.at(-1)!.headers['x-asked-by'], 'gw');
    } finally {
      reader.close();
    }
  });

  it('http_client input with stream.enabled takes each line of a long-lived response as a message', async () => {
    upstream.respondWith((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('alpha\nbe');
      setTimeout(() => res.end('ta\ngamma\n'), 50);
    });
    await streamsApi('Lines', '/lines/', {
      lines: {
        input: { http_client: { url: `${upstream.url}/lines`, stream: { enabled: true, reconnect: false } } },
        output: { http_server: { stream_path: '/sse' } },
      },
    });
    const reader = await SseReader.open(`${node.gatewayUrl}/lines/sse`);
    try {
      assert.deepEqual((await reader.waitFor(3)).slice(0, 3), ['alpha', 'beta', 'gamma']);
    } finally {
      reader.close();
    }
  });

  it('http_server input with sync_response answers with the processed message; http_client output with propagate_response answers with the upstream response', async () => {
    await streamsApi('Sync', '/sync/', {
      shout: {
        input: {
          http_server: { path: '/shout', sync_response: { status: '201', headers: { 'Content-Type': 'text/plain' } } },
        },
        pipeline: { processors: [{ mapping: 'root = content().uppercase()' }] },
        output: { http_client: { url: `${upstream.url}/sink` } },
      },
      ask: {
        input: {
          http_server: {
            path: '/ask',
            sync_response: {
              status: '${! meta("http_status_code") }',
              headers: { 'X-Answered-By': '${! meta("x-upstream") }' },
            },
          },
        },
        output: { http_client: { url: `${upstream.url}/answer`, verb: 'PUT', propagate_response: true } },
      },
    });
    upstream.respondWith((req, res) =>
      res
        .writeHead(req.url === '/answer' ? 202 : 200, { 'content-type': 'application/json', 'x-upstream': 'answers' })
        .end(JSON.stringify({ got: req.body, method: req.method, url: req.url })),
    );
    const shouted = await post('/sync/shout', 'hello');
    assert.equal(shouted.status, 201);
    assert.equal(shouted.headers.get('content-type'), 'text/plain');
    assert.equal(shouted.text, 'HELLO');
    const asked = await post('/sync/ask', 'question');
    assert.equal(asked.status, 202);
    assert.equal(asked.headers.get('x-answered-by'), 'answers');
    assert.deepEqual(asked.json, { got: 'question', method: 'PUT', url: '/answer' });
  });

  it('broker output: round_robin alternates its outputs, fan_out_sequential gives each message to all in order', async () => {
    const hits: string[] = [];
    upstream.respondWith((req, res) => {
      hits.push(`${req.url} ${req.body}`);
      res.writeHead(200).end();
    });
    await streamsApi('Brokers', '/brokers/', {
      rr: {
        input: { http_server: { path: '/rr' } },
        output: {
          broker: {
            pattern: 'round_robin',
            outputs: [{ http_client: { url: `${upstream.url}/one` } }, { http_client: { url: `${upstream.url}/two` } }],
          },
        },
      },
      seq: {
        input: { http_server: { path: '/seq' } },
        output: {
          broker: {
            pattern: 'fan_out_sequential',
            outputs: [
              { http_client: { url: `${upstream.url}/first` } },
              { http_client: { url: `${upstream.url}/second` } },
            ],
          },
        },
      },
    });
    for (const body of ['a', 'b', 'c', 'd']) assert.equal((await post('/brokers/rr', body)).status, 200);
    assert.deepEqual(hits.splice(0), ['/one a', '/two b', '/one c', '/two d']);
    for (const body of ['x', 'y']) assert.equal((await post('/brokers/seq', body)).status, 200);
    assert.deepEqual(hits.splice(0), ['/first x', '/second x', '/first y', '/second y']);
  });

  it('processors: switch routes by check, branch calls out and maps the result back, http replaces the message', async () => {
    upstream.respondWith((req, res) => {
      if (req.url === '/price')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ price: JSON.parse(req.body).sku === 'A1' ? 10 : 99 }));
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`enriched:${req.body}`);
    });
    await streamsApi('Processors', '/proc/', {
      orders: {
        input: { http_server: { path: '/orders', sync_response: {} } },
        pipeline: {
          processors: [
            {
              switch: [
                {
                  check: 'this.kind == "order"',
                  processors: [
                    {
                      branch: {
                        request_map: 'root.sku = this.sku',
                        processors: [{ http: { url: `${upstream.url}/price` } }],
                        result_map: 'root.price = this.price',
                      },
                    },
                  ],
                },
                {
                  check: 'this.kind == "note"',
                  processors: [{ http: { url: `${upstream.url}/enrich`, verb: 'POST' } }],
                },
                { processors: [{ mapping: 'root = deleted()' }] },
              ],
            },
          ],
        },
        output: { http_server: { path: '/out' } },
      },
    });
    const order = post('/proc/orders', JSON.stringify({ kind: 'order', sku: 'A1', qty: 2 }));
    assert.deepEqual(JSON.parse((await http(`${node.gatewayUrl}/proc/out`)).text), {
      kind: 'order',
      sku: 'A1',
      qty: 2,
      price: 10,
    });
    assert.deepEqual((await order).json, { kind: 'order', sku: 'A1', qty: 2, price: 10 });
    const note = post('/proc/orders', JSON.stringify({ kind: 'note' }));
    assert.equal((await http(`${node.gatewayUrl}/proc/out`)).text, 'enriched:{"kind":"note"}');
    assert.equal((await note).status, 200);
    // The last case deletes anything else: acknowledged, never delivered.
    const other = await post('/proc/orders', JSON.stringify({ kind: 'spam' }));
    assert.equal(other.status, 200);
    assert.equal(other.text, '');
  });

  it('portal_webhook output posts each message to the portal apps subscribed to its event type, signed with their secret', async () => {
    const receiver = await startReceiver();
    const portal = await startPortal('portal-secret', [
      {
        name: 'billing',
        webhooks: [{ url: `${receiver.url}/billing`, secret: 'b-secret', events: ['order.created'] }],
      },
      {
        name: 'crm',
        webhooks: [{ url: `${receiver.url}/crm`, secret: 'c-secret', events: ['order.created', 'user.created'] }],
      },
      { name: 'other', webhooks: [{ url: `${receiver.url}/other`, secret: 'o-secret', events: ['user.created'] }] },
    ]);
    try {
      await streamsApi('Portal', '/portal/', {
        hooks: {
          input: { http_server: { path: '/events' } },
          output: { portal_webhook: { event_type: 'order.created', portal_url: portal.url, secret: 'portal-secret' } },
        },
      });
      const body = '{"order":42}';
      assert.equal((await post('/portal/events', body)).status, 200);
      const got = receiver.deliveries.map((d) => d.path).sort();
      assert.deepEqual(got, ['/billing', '/crm']);
      for (const delivery of receiver.deliveries) {
        const secret = delivery.path === '/billing' ? 'b-secret' : 'c-secret';
        assert.equal(delivery.body, body);
        assert.equal(
          delivery.headers['x-gw-signature'],
          `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        );
        assert.equal(delivery.headers['x-gw-event'], 'order.created');
      }
      assert.deepEqual(portal.listings, ['portal-secret']);
    } finally {
      await receiver.close();
      await portal.close();
    }
  });

  it('portal_webhook output reads every page of the portal apps listing (page, per_page) and its PascalCase webhook fields', async () => {
    const receiver = await startReceiver();
    const idle = Array.from({ length: 140 }, (_, i) => ({ name: `idle-${i}`, webhooks: [] }));
    const late = {
      name: 'late',
      Webhooks: [{ URL: `${receiver.url}/late`, Secret: 'l-secret', Events: ['invoice.paid'] }],
    } as unknown as PortalApp;
    const portal = await startPortal('portal-secret', [...idle, late]);
    try {
      await streamsApi('PortalPages', '/portal-pages/', {
        hooks: {
          input: { http_server: { path: '/events' } },
          output: { portal_webhook: { event_type: 'invoice.paid', portal_url: portal.url, secret: 'portal-secret' } },
        },
      });
      const body = '{"invoice":7}';
      assert.equal((await post('/portal-pages/events', body)).status, 200);
      assert.deepEqual(
        receiver.deliveries.map((d) => d.path),
        ['/late'],
      );
      assert.equal(
        receiver.deliveries[0].headers['x-gw-signature'],
        `sha256=${createHmac('sha256', 'l-secret').update(body).digest('hex')}`,
      );
      assert.deepEqual(portal.listings, ['portal-secret', 'portal-secret']);
    } finally {
      await receiver.close();
      await portal.close();
    }
  });

  it("refuses outbound URLs of metadata addresses when saved, and this node's own ports when sending", async () => {
    const saved = await api('/apis/streams', {
      method: 'POST',
      body: JSON.stringify(
        streamsDocument('Meta', '/meta/', {
          m: {
            input: { http_server: {} },
            output: { http_client: { url: 'http://169.254.169.254/latest/meta-data' } },
          },
        }),
      ),
      headers: STREAMS_TYPE,
    });
    assert.equal(saved.status, 400);
    assert.match(
      saved.json.Message,
      /\/x-gw-streaming\/streams\/m\/output\/http_client\/url: may not point at a cloud metadata address/,
    );
    const apiId = await streamsApi('Inside', '/inside/', {
      inside: {
        input: { http_server: { path: '/in', timeout: '300ms' } },
        output: {
          http_client: {
            url: `${node.dashboardUrl}/admin/organisations`,
            verb: 'GET',
            headers: node.adminHeaders,
            retries: 0,
          },
        },
      },
    });
    const res = await post('/inside/in', 'x');
    assert.equal(res.status, 408);
    const stats = (await api(`/apis/streams/${apiId}/stats`)).json.streams.inside;
    assert.ok(stats.errors >= 1);
    assert.equal(stats.messages_out, 0);
  });

  it('http_server input answers 429 beyond its rate_limit resource', async () => {
    await streamsApi('Limited', '/limited-in/', {
      l: {
        input: { http_server: { path: '/in', rate_limit: 'two' } },
        output: { http_client: { url: `${upstream.url}/l` } },
        rate_limit_resources: [{ label: 'two', local: { count: 2, interval: '1m' } }],
      },
    });
    upstream.respondWith((_req, res) => res.writeHead(200).end());
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('/limited-in/in', `m${i}`)).status);
    assert.deepEqual(statuses, [200, 200, 429, 429]);
  });
});
