import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';
import { startUpstream, type Upstream } from '../../support/upstream';

/** `${! … }` interpolations in the url and headers of http_client (input, output) and the http processor. */
describe('Streams: interpolated HTTP urls and headers', () => {
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Upstream;
  const api = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: { ...tenant.headers, ...options.headers } });
  const save = (name: string, listenPath: string, streams: Record<string, unknown>) =>
    api('/apis/streams', {
      method: 'POST',
      body: JSON.stringify(streamsDocument(name, listenPath, streams)),
      headers: STREAMS_TYPE,
    });

  before(async () => {
    node = await startTestNode({ streamsDrainTimeout: 1 });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Interpolation');
    upstream = await startUpstream();
  });
  after(async () => {
    await node?.stop();
    await upstream?.close();
    if (node) removeDir(node.dataDir);
  });

  it('the http processor and http_client output resolve url and headers per message', async () => {
    upstream.respondWith((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(req.url.startsWith('/lookup/') ? req.body : '{}'),
    );
    const saved = await save('Routed', '/routed/', {
      route: {
        input: { http_server: { path: '/in', sync_response: {} } },
        pipeline: {
          processors: [
            {
              http: { url: `${upstream.url}/lookup/\${! this.id }`, headers: { 'X-Tenant': '${! meta("x-tenant") }' } },
            },
          ],
        },
        output: {
          http_client: {
            url: `${upstream.url}/orders/\${! this.id }?region=\${! meta("x-region").or("none") }`,
            headers: { 'X-Order': 'order-${! this.id }', 'X-Static': 'plain' },
          },
        },
      },
    });
    assert.equal(saved.status, 200, saved.text);
    await eventually(
      async () => assert.notEqual((await http(`${node.gatewayUrl}/routed/no-such-path`)).status, 404),
      5000,
    );
    const sent = await http(`${node.gatewayUrl}/routed/in`, {
      method: 'POST',
      body: '{"id":7}',
      headers: { 'X-Tenant': 'acme', 'X-Region': 'eu' },
    });
    assert.equal(sent.status, 200, sent.text);
    const lookup = upstream.received.find((r) => r.url.startsWith('/lookup/'))!;
    assert.equal(lookup.url, '/lookup/7');
    assert.equal(lookup.headers['x-tenant'], 'acme');
    const order = upstream.received.find((r) => r.url.startsWith('/orders/'))!;
    assert.equal(order.url, '/orders/7?region=eu');
    assert.equal(order.headers['x-order'], 'order-7');
    assert.equal(order.headers['x-static'], 'plain');
  });

  it('http_client input resolves its url and headers for each poll', async () => {
    upstream.respondWith((_req, res) => res.writeHead(200).end('tick'));
    const before = upstream.received.length;
    const saved = await save('Polled', '/polled/', {
      poll: {
        input: {
          http_client: {
            url: `${upstream.url}/feed/\${! 40 + 2 }`,
            headers: { 'X-Poll': 'n-${! 20 + 22 }' },
            rate_limit: 'slow',
          },
        },
        output: { http_server: { stream_path: '/sse' } },
        rate_limit_resources: [{ label: 'slow', local: { count: 1, interval: '100ms' } }],
      },
    });
    assert.equal(saved.status, 200, saved.text);
    await eventually(() => assert.ok(upstream.received.slice(before).some((r) => r.url.startsWith('/feed/'))), 5000);
    const poll = upstream.received.slice(before).find((r) => r.url.startsWith('/feed/'))!;
    assert.equal(poll.url, '/feed/42');
    assert.equal(poll.headers['x-poll'], 'n-42');
  });

  it('refuses an interpolation that does not parse, naming the stream and field, and stores nothing', async () => {
    const badUrl = await save('BadUrl', '/bad-url/', {
      s: { input: { http_server: {} }, output: { http_client: { url: `${upstream.url}/\${! this.( }` } } },
    });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.json.Status, 'Error');
    assert.match(
      badUrl.json.Message,
      /\/x-gw-streaming\/streams\/s\/output\/http_client\/url: the interpolation does not parse/,
    );
    const badHeader = await save('BadHeader', '/bad-header/', {
      h: {
        input: { http_server: {} },
        pipeline: { processors: [{ http: { url: `${upstream.url}/x`, headers: { 'X-Id': '${! meta( }' } } }] },
        output: { http_server: {} },
      },
    });
    assert.equal(badHeader.status, 400);
    assert.match(
      badHeader.json.Message,
      /\/x-gw-streaming\/streams\/h\/pipeline\/processors\/0\/http\/headers\/X-Id: the interpolation does not parse/,
    );
    const names = (await api('/apis')).text;
    assert.ok(!names.includes('BadUrl') && !names.includes('BadHeader'));
  });
});
