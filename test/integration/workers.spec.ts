import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import type { GatewayEvent } from '../../contracts/events';
import type { GwConfig } from '../../lib/config/load-config';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { clusterSettings } from '../support/cluster';
import { eventually } from '../support/eventually';
import { http, readText } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { TEST_METRICS_TOKEN, sampleValue, scrape } from '../support/prometheus';
import { startUpstream, type Upstream } from '../support/upstream';

const WORKERS = 4;

/** One request on a connection of its own, so that the kernel picks a worker for it (reusePort). */
function callOnNewConnection(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers }, (res) => {
      readText(res).then((body) => resolve({ status: res.statusCode!, body }), reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `total` requests, `concurrency` at a time, each on a new connection; their statuses in order of completion. */
async function hammer(url: string, total: number, concurrency: number, headers: Record<string, string> = {}) {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        statuses.push((await callOnNewConnection(url, headers)).status);
      }
    }),
  );
  return statuses;
}

function countOf(statuses: number[], status: number): number {
  return statuses.filter((s) => s === status).length;
}

/**
 * A node with GW_WORKERS=4 as a user runs it (`npm start`'s embedded node: management on the main
 * thread, four gateway workers on one port): limits exact across workers, one worker replaced
 * while the others serve, writes and reloads reaching every worker.
 */
describe('gateway workers (GW_WORKERS=4)', function () {
  this.timeout(60_000);
  let upstream: Upstream;

  before(async () => {
    upstream = await startUpstream();
  });
  after(async () => {
    await upstream.close();
  });

  describe('one node, management and four workers', () => {
    let node: TestNode;
    let tenant: Tenant;
    const events: GatewayEvent[] = [];
    const ids: Record<string, string> = {};
    const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const createKey = async (session: Record<string, unknown>, api: string) => {
      const res = await dashboard('/keys', {
        method: 'POST',
        body: { access_rights: { [ids[api]]: { api_id: ids[api] } }, ...session },
      });
      assert.equal(res.status, 200, res.text);
      return res.json.key_id as string;
    };
    /** every one of `probes` new connections sees the API at `path` answered by the upstream */
    const servedEverywhere = async (path: string, headers: Record<string, string> = {}) => {
      const statuses = await hammer(`${node.gatewayUrl}${path}`, 40, 20, headers);
      assert.deepEqual(
        statuses,
        statuses.map(() => 200),
      );
    };

    before(async () => {
      node = await startTestNode({ workers: String(WORKERS), gatewayMetrics: true, metricsToken: TEST_METRICS_TOKEN });
      node.broker.createService({
        name: 'event-recorder',
        events: {
          'gw.event.*'(ctx: { params: GatewayEvent }) {
            events.push(ctx.params);
          },
        },
      });
      await node.broker.waitForServices('event-recorder', 5000);
      tenant = await createTenant(node.dashboardUrl, node.adminHeaders);
      for (const name of ['limited', 'quota']) {
        const res = await dashboard('/apis', {
          method: 'POST',
          body: keylessApi(name, `/${name}`, upstream.url, { use_keyless: false }),
        });
        assert.equal(res.status, 200, res.text);
        ids[name] = res.json.ID;
      }
      // every worker serves both APIs (a request without a key is refused, not unknown)
      for (const name of ['limited', 'quota'])
        await eventually(async () => {
          const statuses = await hammer(`${node.gatewayUrl}/${name}/probe`, 40, 20);
          assert.deepEqual(
            statuses,
            statuses.map(() => 401),
          );
        }, 5000);
    });
    after(async () => {
      await node?.stop();
      if (node) removeDir(node.dataDir);
    });

    it('serves the gateway port from four workers, each ready in /gw/health', async () => {
      const health = await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders });
      assert.equal(health.status, 200, health.text);
      assert.equal(health.json.workers.length, WORKERS);
      assert.deepEqual(
        health.json.workers.map((w: { state: string; node: string }) => w.state),
        Array(WORKERS).fill('ready'),
      );
      assert.deepEqual(
        health.json.workers.map((w: { node: string }) => w.node),
        [0, 1, 2, 3].map((i) => `${node.broker.nodeID}.w${i}`),
      );
    });

    it('allows exactly 100 of 400 requests on a 100-per-minute key over 50 connections, whichever worker takes each', async () => {
      const key = await createKey({ rate: 100, per: 60 }, 'limited');
      events.length = 0;
      const statuses = await hammer(`${node.gatewayUrl}/limited/a`, 400, 50, { authorization: key });
      assert.equal(countOf(statuses, 200), 100, JSON.stringify(statuses));
      assert.equal(countOf(statuses, 429), 300);
      // the refusals came from several workers: the limit held across them, not within one
      await eventually(() => assert.equal(events.filter((e) => e.event === 'RatelimitExceeded').length, 300), 5000);
      const refusingWorkers = new Set(events.map((e) => e.origin));
      assert.ok(refusingWorkers.size >= 3, `refused by ${[...refusingWorkers].join(', ')}`);
    });

    it('sums every worker in one /metrics scrape of the gateway port', async () => {
      const refused = { api_id: ids.quota, method: 'GET', status_class: '4xx' };
      const before = sampleValue(await scrape(`${node.gatewayUrl}/metrics`), 'gw_requests_total', refused) ?? 0;
      const statuses = await hammer(`${node.gatewayUrl}/quota/unkeyed`, 60, 20);
      assert.deepEqual(
        statuses,
        statuses.map(() => 401),
      );
      const samples = await scrape(`${node.gatewayUrl}/metrics`);
      assert.equal(sampleValue(samples, 'gw_requests_total', refused), before + 60);
    });

    it('spends a quota of 100 exactly once across the workers', async () => {
      const key = await createKey({ quota_max: 100, quota_renewal_rate: 3600 }, 'quota');
      const statuses = await hammer(`${node.gatewayUrl}/quota/a`, 400, 50, { authorization: key });
      assert.equal(countOf(statuses, 200), 100, JSON.stringify(statuses));
      assert.equal(countOf(statuses, 403), 300);
      const fetched = await dashboard(`/apis/${ids.quota}/keys/${key}`);
      assert.equal(fetched.json.data.quota_remaining, 0);
    });

    it('serves an API written through /gw/apis on every worker by the time the write answers', async () => {
      const created = await http(`${node.gatewayUrl}/gw/apis`, {
        method: 'POST',
        headers: node.gwHeaders,
        body: {
          api_id: 'written-here',
          name: 'written-here',
          org_id: tenant.orgId,
          use_keyless: true,
          proxy: { listen_path: '/written-here/', target_url: upstream.url, strip_listen_path: true },
        },
      });
      assert.equal(created.status, 200, created.text);
      await servedEverywhere('/written-here/a');
    });

    it('reloads every worker on /gw/reload', async () => {
      const reloaded = await http(`${node.gatewayUrl}/gw/reload`, { headers: node.gwHeaders });
      assert.deepEqual([reloaded.status, reloaded.json], [200, { status: 'ok', message: '' }]);
      await servedEverywhere('/written-here/b');
    });

    it('refuses a deleted key on every worker', async () => {
      const key = await createKey({}, 'limited');
      await eventually(() => servedEverywhere('/limited/b', { authorization: key }), 5000);
      const deleted = await dashboard(`/apis/${ids.limited}/keys/${key}`, { method: 'DELETE' });
      assert.equal(deleted.status, 200, deleted.text);
      await eventually(async () => {
        const statuses = await hammer(`${node.gatewayUrl}/limited/c`, 40, 20, { authorization: key });
        assert.deepEqual(
          statuses,
          statuses.map(() => 403),
        );
      }, 5000);
    });

    it('replaces a worker that exits while the others keep serving', async () => {
      const victim = node.workers!.thread(2)!;
      await victim.terminate();
      // the kernel no longer gives the gone worker's port any connection: nothing fails meanwhile
      const during = await hammer(`${node.gatewayUrl}/written-here/c`, 100, 20);
      assert.deepEqual(
        during,
        during.map(() => 200),
      );
      await eventually(async () => {
        const health = await http(`${node.gatewayUrl}/gw/health`, { headers: node.gwHeaders });
        const replaced = health.json.workers[2];
        assert.deepEqual([replaced.state, replaced.restarts], ['ready', 1]);
      }, 20_000);
      await servedEverywhere('/written-here/d');
    });
  });

  for (const [mode, settings] of [
    ['the sliding log (sentinel)', { enableSentinelRateLimiter: true }],
    ['the fixed window', { enableFixedWindowRateLimiter: true }],
    ...(process.env.GW_TEST_REDIS ? [['counters in Redis', { redisUrl: process.env.GW_TEST_REDIS }]] : []),
  ] as Array<[string, Partial<GwConfig>]>) {
    it(`allows exactly 100 of 400 requests on a 100-per-minute API limit with ${mode}`, async () => {
      const node = await startTestNode({ workers: String(WORKERS), ...settings });
      try {
        const apiId = `limited-${Math.random().toString(36).slice(2, 10)}`;
        const created = await http(`${node.gatewayUrl}/gw/apis`, {
          method: 'POST',
          headers: node.gwHeaders,
          body: {
            api_id: apiId,
            name: apiId,
            use_keyless: true,
            global_rate_limit: { rate: 100, per: 60 },
            proxy: { listen_path: `/${apiId}/`, target_url: upstream.url, strip_listen_path: true },
          },
        });
        assert.equal(created.status, 200, created.text);
        const statuses = await hammer(`${node.gatewayUrl}/${apiId}/a`, 400, 50);
        assert.equal(countOf(statuses, 200), 100, JSON.stringify(statuses));
        assert.equal(countOf(statuses, 429), 300);
      } finally {
        await node.stop();
        removeDir(node.dataDir);
      }
    });
  }

  describe('a gateway-role node with two workers, and a management node, over NATS', () => {
    const natsUrl = process.env.GW_TEST_NATS;
    let management: TestNode;
    let gateway: TestNode;

    before(async function () {
      if (!natsUrl) this.skip();
      const cluster = clusterSettings(natsUrl);
      management = await startTestNode({ ...cluster, services: ['management'] });
      gateway = await startTestNode({ ...cluster, services: ['gateway'], workers: '2' });
    });
    after(async () => {
      for (const node of [gateway, management]) {
        await node?.stop();
        if (node) removeDir(node.dataDir);
      }
    });

    it('serves an API from the management node on both workers, each its own node on NATS, and limits a key exactly', async () => {
      const tenant = await createTenant(management.dashboardUrl, management.adminHeaders);
      const dashboard = (path: string, body: unknown) =>
        http(`${management.dashboardUrl}/api${path}`, { method: 'POST', headers: tenant.headers, body });
      const created = await dashboard(
        '/apis',
        keylessApi('over-nats', '/over-nats', upstream.url, { use_keyless: false }),
      );
      assert.equal(created.status, 200, created.text);
      const apiId = created.json.ID as string;
      const key = await dashboard('/keys', { access_rights: { [apiId]: { api_id: apiId } }, rate: 100, per: 60 });
      assert.equal(key.status, 200, key.text);
      const health = await http(`${gateway.gatewayUrl}/gw/health`, { headers: gateway.gwHeaders });
      assert.deepEqual(
        health.json.workers.map((w: { node: string; state: string }) => [w.node, w.state]),
        [0, 1].map((i) => [`${gateway.broker.nodeID}.w${i}`, 'ready']),
      );
      // both workers serve it once the change event reached them: a request without a key is refused, not unknown
      await eventually(async () => {
        const probe = await hammer(`${gateway.gatewayUrl}/over-nats/probe`, 20, 20);
        assert.deepEqual(
          probe,
          probe.map(() => 401),
        );
      }, 5000);
      const statuses = await hammer(`${gateway.gatewayUrl}/over-nats/a`, 400, 50, { authorization: key.json.key_id });
      assert.equal(countOf(statuses, 200), 100, JSON.stringify(statuses));
      assert.equal(countOf(statuses, 429), 300);
    });
  });
});
