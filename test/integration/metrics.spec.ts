import { strict as assert } from 'node:assert';
import { COUNTERS, count } from '../../lib/observability/counters';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { TEST_METRICS_TOKEN, parseExposition, sampleValue, scrape, type Sample } from '../support/prometheus';
import { startUpstream, type Upstream } from '../support/upstream';

describe('Prometheus metrics at GET /metrics', function () {
  this.timeout(30_000);

  describe('a node with the gateway metrics on', () => {
    let node: TestNode;
    let upstream: Upstream;
    let tenant: Tenant;
    const ids: Record<string, string> = {};
    const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const call = (path: string, options: { method?: string; key?: string } = {}) =>
      http(`${node.gatewayUrl}${path}`, {
        method: options.method,
        headers: options.key ? { authorization: options.key } : {},
      });
    const createApi = async (
      name: string,
      definition: Record<string, unknown> = {},
      record: Record<string, unknown> = {},
    ) => {
      const res = await dashboard('/apis', {
        method: 'POST',
        body: { ...keylessApi(name, `/${name}`, upstream.url, definition), ...record },
      });
      assert.equal(res.status, 200, res.text);
      ids[name] = res.json.ID;
      // Served once the gateway has it (asked on /gw, so no request of the API is counted meanwhile).
      await eventually(
        async () =>
          assert.equal(
            (await http(`${node.gatewayUrl}/gw/apis/${ids[name]}`, { headers: node.gwHeaders })).status,
            200,
          ),
        3000,
      );
    };
    const createKey = async (name: string, session: Record<string, unknown>) => {
      const res = await dashboard('/keys', {
        method: 'POST',
        body: { access_rights: { [ids[name]]: { api_id: ids[name] } }, ...session },
      });
      assert.equal(res.status, 200, res.text);
      return res.json.key_id as string;
    };
    /** the two ports scraped; in this all-in-one node both show the one registry */
    const scrapeBoth = async (): Promise<Sample[][]> => [
      await scrape(`${node.gatewayUrl}/metrics`),
      await scrape(`${node.dashboardUrl}/metrics`),
    ];

    before(async () => {
      upstream = await startUpstream();
      node = await startTestNode({ gatewayMetrics: true, metricsToken: TEST_METRICS_TOKEN });
      tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
      await createApi('open');
      await createApi(
        'guarded',
        { use_keyless: false },
        {
          hook_references: [
            {
              event_name: 'AuthFailure',
              hook: { name: 'inline', method: 'POST', target_path: `${upstream.url}/hook` },
              event_timeout: 0,
            },
          ],
        },
      );
    });
    after(async () => {
      await node.stop();
      await upstream.close();
      removeDir(node.dataDir);
    });

    it('counts requests by API, method and status class, with latency histograms, on both ports', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await call('/open/a')).status, 200);
      assert.equal((await call('/open/a', { method: 'POST' })).status, 200);
      assert.equal((await call('/open/a', { method: 'PURGE' })).status, 200);
      upstream.respondWith((_req, res) => res.writeHead(502).end());
      try {
        assert.equal((await call('/open/broken')).status, 502);
      } finally {
        upstream.respondWith((req, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url })),
        );
      }
      const total = 6;
      await eventually(async () => {
        for (const samples of await scrapeBoth()) {
          const requests = (labels: Record<string, string>) =>
            sampleValue(samples, 'gw_requests_total', { api_id: ids.open, ...labels });
          assert.equal(requests({ method: 'GET', status_class: '2xx' }), 3);
          assert.equal(requests({ method: 'POST', status_class: '2xx' }), 1);
          assert.equal(
            requests({ method: 'OTHER', status_class: '2xx' }),
            1,
            'a method outside the fixed list is OTHER',
          );
          assert.equal(requests({ method: 'GET', status_class: '5xx' }), 1);
          assert.equal(sampleValue(samples, 'gw_request_duration_seconds_count', { api_id: ids.open }), total);
          assert.equal(
            sampleValue(samples, 'gw_request_duration_seconds_bucket', { api_id: ids.open, le: '+Inf' }),
            total,
          );
          assert.equal(
            sampleValue(samples, 'gw_upstream_duration_seconds_count', { api_id: ids.open }),
            total,
            'the upstream answered every one',
          );
          assert.ok(
            sampleValue(samples, 'gw_request_duration_seconds_bucket', { api_id: ids.open, le: '30' })! <= total,
          );
          assert.ok(sampleValue(samples, 'gw_request_duration_seconds_sum', { api_id: ids.open })! > 0);
          assert.ok(!samples.some((s) => JSON.stringify(s.labels).includes('/open/a')), 'no raw path in any label');
        }
      }, 3000);
    });

    it('counts authentication failures (401, 403) and the webhook deliveries they cause', async () => {
      assert.equal((await call('/guarded/x')).status, 401);
      assert.equal((await call('/guarded/x')).status, 401);
      assert.equal((await call('/guarded/x', { key: 'not-a-key' })).status, 403);
      await eventually(async () => {
        const [samples] = await scrapeBoth();
        assert.equal(sampleValue(samples, 'gw_auth_failures_total', { api_id: ids.guarded, status_code: '401' }), 2);
        assert.equal(sampleValue(samples, 'gw_auth_failures_total', { api_id: ids.guarded, status_code: '403' }), 1);
        assert.equal(
          sampleValue(samples, 'gw_requests_total', { api_id: ids.guarded, method: 'GET', status_class: '4xx' }),
          3,
        );
        assert.equal(
          sampleValue(samples, 'gw_upstream_duration_seconds_count', { api_id: ids.guarded }),
          undefined,
          'no request reached the upstream',
        );
        assert.equal(
          sampleValue(samples, 'gw_webhook_deliveries_total', { event: 'AuthFailure', outcome: 'delivered' }),
          1,
        );
      }, 3000);
      assert.equal(upstream.received.filter((r) => r.url === '/hook').length, 1);
    });

    it('counts limiter refusals: 429 from a rate limit, 403 from a spent quota, and no auth failure for them', async () => {
      const limited = await createKey('guarded', { rate: 2, per: 60 });
      const rated = [];
      for (let i = 0; i < 3; i++) rated.push((await call('/guarded/r', { key: limited })).status);
      assert.deepEqual(rated, [200, 200, 429]);
      const quota = await createKey('guarded', { rate: 100, per: 60, quota_max: 1, quota_renewal_rate: 3600 });
      assert.equal((await call('/guarded/q', { key: quota })).status, 200);
      assert.equal((await call('/guarded/q', { key: quota })).status, 403);
      await eventually(async () => {
        const [samples] = await scrapeBoth();
        assert.equal(
          sampleValue(samples, 'gw_limiter_refusals_total', { api_id: ids.guarded, reason: 'rate_limit' }),
          1,
        );
        assert.equal(sampleValue(samples, 'gw_limiter_refusals_total', { api_id: ids.guarded, reason: 'quota' }), 1);
        assert.equal(
          sampleValue(samples, 'gw_auth_failures_total', { api_id: ids.guarded, status_code: '403' }),
          1,
          'unchanged by the quota 403',
        );
        assert.equal(
          sampleValue(samples, 'gw_requests_total', { api_id: ids.guarded, method: 'GET', status_class: '2xx' }),
          3,
        );
        assert.equal(
          sampleValue(samples, 'gw_requests_total', { api_id: ids.guarded, method: 'GET', status_class: '4xx' }),
          5,
        );
        assert.equal(sampleValue(samples, 'gw_upstream_duration_seconds_count', { api_id: ids.guarded }), 3);
      }, 3000);
    });

    it('shows the analytics records dropped and the process metrics', async () => {
      const before =
        sampleValue(await scrape(`${node.dashboardUrl}/metrics`), 'gw_analytics_records_dropped_total', {
          reason: 'metrics-test',
        }) ?? 0;
      count(COUNTERS.analyticsRecordsDropped, { reason: 'metrics-test' }, 2);
      const samples = await scrape(`${node.dashboardUrl}/metrics`);
      assert.equal(sampleValue(samples, 'gw_analytics_records_dropped_total', { reason: 'metrics-test' }), before + 2);
      assert.ok(sampleValue(samples, 'process_cpu_user_seconds_total')! > 0);
      assert.ok(sampleValue(samples, 'process_resident_memory_bytes')! > 0);
      assert.ok(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes'));
      assert.ok(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds'));
    });

    it('shows the event loop delay as a histogram on both ports', async () => {
      for (const url of [`${node.gatewayUrl}/metrics`, `${node.dashboardUrl}/metrics`])
        await eventually(async () => {
          const res = await http(url, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
          assert.equal(res.status, 200);
          assert.match(res.text, /^# TYPE gw_event_loop_delay_seconds histogram$/m, url);
          const samples = parseExposition(res.text);
          const count = sampleValue(samples, 'gw_event_loop_delay_seconds_count')!;
          assert.ok(count > 0, `${url}: the loop has been sampled`);
          assert.equal(sampleValue(samples, 'gw_event_loop_delay_seconds_bucket', { le: '+Inf' }), count, url);
          assert.ok(sampleValue(samples, 'gw_event_loop_delay_seconds_bucket', { le: '0.0001' })! <= count, url);
        });
    });

    it('drops the series of a deleted API', async () => {
      await createApi('passing');
      assert.equal((await call('/passing/x')).status, 200);
      const counted = { api_id: ids.passing, method: 'GET', status_class: '2xx' };
      await eventually(async () =>
        assert.equal(sampleValue(await scrape(`${node.gatewayUrl}/metrics`), 'gw_requests_total', counted), 1),
      );
      assert.equal((await dashboard(`/apis/${ids.passing}`, { method: 'DELETE' })).status, 200);
      await eventually(async () => {
        const samples = await scrape(`${node.gatewayUrl}/metrics`);
        assert.ok(!samples.some((s) => s.labels.api_id === ids.passing), 'no series of the deleted API');
        assert.equal(
          sampleValue(samples, 'gw_requests_total', { api_id: ids.open, method: 'GET', status_class: '2xx' }),
          3,
          'the others stay',
        );
      }, 3000);
    });

    it('answers HEAD without a body and refuses other methods on the gateway port', async () => {
      const head = await http(`${node.gatewayUrl}/metrics`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
      });
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      const post = await http(`${node.gatewayUrl}/metrics`, { method: 'POST' });
      assert.equal(post.status, 405);
      assert.deepEqual(post.json, { error: 'Method not allowed' });
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
    });
  });

  describe('the switches', () => {
    let upstream: Upstream;
    const nodes: TestNode[] = [];
    before(async () => {
      upstream = await startUpstream();
    });
    after(async () => {
      for (const node of nodes) {
        await node.stop();
        removeDir(node.dataDir);
      }
      await upstream.close();
    });

    it('by default: the dashboard port serves /metrics, the gateway port does not (an API there is reached)', async () => {
      const node = await startTestNode();
      nodes.push(node);
      assert.equal(
        (
          await http(`${node.dashboardUrl}/metrics`, {
            headers: { authorization: `Bearer ${node.config.adminSecret}` },
          })
        ).status,
        200,
      );
      const off = await http(`${node.gatewayUrl}/metrics`);
      assert.equal(off.status, 404);
      assert.deepEqual(Object.keys(off.json), ['error']);
      const tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
      const api = await http(`${node.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: keylessApi('metrics-api', '/metrics', upstream.url),
      });
      assert.equal(api.status, 200, api.text);
      await eventually(async () => {
        const res = await http(`${node.gatewayUrl}/metrics`);
        assert.equal(res.status, 200);
        assert.equal(res.json.url, '/', "the tenant's API answers, not the node's metrics");
      }, 3000);
    });

    it('GW_DASHBOARD_METRICS=false: the dashboard port answers 404 in its envelope', async () => {
      const node = await startTestNode({ dashboardMetrics: false });
      nodes.push(node);
      const res = await http(`${node.dashboardUrl}/metrics`);
      assert.equal(res.status, 404);
      assert.equal(res.json.Status, 'Error');
    });

    it('without GW_METRICS_TOKEN: never open; each port wants its own secret as the bearer token', async () => {
      const node = await startTestNode({ gatewayMetrics: true });
      nodes.push(node);
      const ports = [
        { url: `${node.dashboardUrl}/metrics`, own: node.config.adminSecret, other: node.config.secret },
        { url: `${node.gatewayUrl}/metrics`, own: node.config.secret, other: node.config.adminSecret },
      ];
      for (const { url, own, other } of ports) {
        for (const authorization of [undefined, `Bearer ${other}`, own]) {
          const res = await http(url, { headers: authorization ? { authorization } : {} });
          assert.equal(
            res.status,
            401,
            `${url} with ${authorization === undefined ? 'nothing' : 'a wrong credential'}`,
          );
          assert.ok(!res.text.includes(own) && !res.text.includes(other), 'no secret is echoed');
        }
        const ok = await http(url, { headers: { authorization: `Bearer ${own}` } });
        assert.equal(ok.status, 200);
        assert.match(ok.text, /^# HELP gw_requests_total /m);
      }
    });

    it('GW_METRICS_TOKEN: both ports want `Authorization: Bearer <token>`', async () => {
      const node = await startTestNode({ gatewayMetrics: true, metricsToken: 'scrape-me' });
      nodes.push(node);
      for (const url of [`${node.gatewayUrl}/metrics`, `${node.dashboardUrl}/metrics`]) {
        for (const authorization of [undefined, 'Bearer wrong', 'scrape-me', 'Basic scrape-me']) {
          const res = await http(url, { headers: authorization ? { authorization } : {} });
          assert.equal(res.status, 401, `${url} with ${authorization}`);
          assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
          assert.ok(!res.text.includes('scrape-me'), 'the token is not echoed');
        }
        const ok = await http(url, { headers: { authorization: 'Bearer scrape-me' } });
        assert.equal(ok.status, 200);
        assert.match(ok.text, /^# HELP gw_requests_total /m);
      }
      assert.deepEqual((await http(`${node.gatewayUrl}/metrics`)).json, {
        error: "Authorization: Bearer <GW_METRICS_TOKEN, or the port's secret> required",
      });
      assert.deepEqual((await http(`${node.dashboardUrl}/metrics`)).json, {
        Status: 'Error',
        Message: "Authorization: Bearer <GW_METRICS_TOKEN, or the port's secret> required",
        Meta: null,
      });
    });

    it('gives each node in one process its own registry', async () => {
      const [a, b] = [
        await startTestNode({ gatewayMetrics: true, metricsToken: TEST_METRICS_TOKEN }),
        await startTestNode({ gatewayMetrics: true, metricsToken: TEST_METRICS_TOKEN }),
      ];
      nodes.push(a, b);
      const tenant = await createTenant(a.dashboardUrl, a.adminHeaders);
      const api = await http(`${a.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: keylessApi('only-a', '/only-a', upstream.url),
      });
      const apiId = api.json.ID as string;
      await eventually(async () => assert.equal((await http(`${a.gatewayUrl}/only-a/`)).status, 200), 3000);
      await eventually(async () =>
        assert.equal(
          sampleValue(await scrape(`${a.gatewayUrl}/metrics`), 'gw_requests_total', {
            api_id: apiId,
            method: 'GET',
            status_class: '2xx',
          }),
          1,
        ),
      );
      assert.equal(
        sampleValue(await scrape(`${b.gatewayUrl}/metrics`), 'gw_requests_total', {
          api_id: apiId,
          method: 'GET',
          status_class: '2xx',
        }),
        undefined,
      );
    });
  });
});
