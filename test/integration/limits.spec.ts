import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import type { GatewayEvent } from '../../contracts/events';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

describe('rate limits, quotas and throttling in the request path', function () {
  this.timeout(30_000);
  let node: TestNode;
  let upstream: Upstream;
  let tenant: Tenant;
  const events: GatewayEvent[] = [];
  const ids: Record<string, string> = {};
  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const call = (path: string, key?: string) =>
    http(`${node.gatewayUrl}${path}`, { headers: key ? { authorization: key } : {} });
  const createApi = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await dashboard('/apis', {
      method: 'POST',
      body: keylessApi(name, `/${name}`, upstream.url, { use_keyless: false, ...extra }),
    });
    assert.equal(res.status, 200, res.text);
    ids[name] = res.json.ID;
  };
  const createKey = async (session: Record<string, unknown>, ...apis: string[]) => {
    const access_rights = Object.fromEntries(apis.map((name) => [ids[name], { api_id: ids[name] }]));
    const res = await dashboard('/keys', { method: 'POST', body: { access_rights, ...session } });
    assert.equal(res.status, 200, res.text);
    return res.json.key_id as string;
  };
  const statuses = async (count: number, path: string, key?: string) => {
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push((await call(path, key)).status);
    return out;
  };

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
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
    for (const name of ['limited', 'first', 'second', 'throttled', 'quota']) await createApi(name);
    await createApi('open-global', { use_keyless: true, global_rate_limit: { rate: 2, per: 60 } });
    await createApi('open-off', {
      use_keyless: true,
      global_rate_limit: { rate: 1, per: 60 },
      disable_rate_limit: true,
    });
    await createApi('open-endpoints', {
      use_keyless: true,
      version_data: {
        not_versioned: true,
        default_version: 'Default',
        versions: {
          Default: {
            name: 'Default',
            use_extended_paths: true,
            extended_paths: { rate_limit: [{ path: '/search', method: 'GET', enabled: true, rate: 1, per: 60 }] },
          },
        },
      },
    });
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  it('refuses a key over its rate with 429 Rate Limit Exceeded, and emits RatelimitExceeded', async () => {
    const key = await createKey({ rate: 3, per: 60 }, 'limited');
    assert.deepEqual(await statuses(4, '/limited/a', key), [200, 200, 200, 429]);
    const res = await call('/limited/a', key);
    assert.deepEqual(res.json, { error: 'Rate Limit Exceeded' });
    assert.equal(res.headers.get('x-generator'), 'gw');
    const event = events.find(
      (e) => e.event === 'RatelimitExceeded' && e.api_id === ids.limited && e.org_id === tenant.orgId,
    );
    assert.ok(event, 'RatelimitExceeded was published');
    // the request's details, as the reference's event meta has them, and the limiter's counter
    assert.equal(event.meta?.path, '/limited/a');
    assert.equal(event.meta?.client_ip, '127.0.0.1');
    assert.match(String(event.meta?.counter), /^key:[0-9a-f]{64}/);
    assert.match(event.key, /^[0-9a-f]{64}$/);
  });

  it('refuses an API over its global_rate_limit with 429 API Rate Limit Exceeded', async () => {
    assert.deepEqual(await statuses(3, '/open-global/a'), [200, 200, 429]);
    assert.deepEqual((await call('/open-global/a')).json, { error: 'API Rate Limit Exceeded' });
  });

  it('does not rate limit an API with disable_rate_limit', async () => {
    assert.deepEqual(await statuses(3, '/open-off/a'), [200, 200, 200]);
  });

  it('limits an endpoint on its own, leaving the rest of the API alone', async () => {
    assert.deepEqual(await statuses(2, '/open-endpoints/search?q=1'), [200, 429]);
    assert.deepEqual(await statuses(3, '/open-endpoints/browse'), [200, 200, 200]);
  });

  it('shares one counter between the APIs of a key', async () => {
    const policy = await dashboard('/portal/policies', {
      method: 'POST',
      body: {
        name: 'both',
        rate: 3,
        per: 60,
        access_rights: { [ids.first]: { api_id: ids.first }, [ids.second]: { api_id: ids.second } },
      },
    });
    const keyA = await createKey({ apply_policies: [policy.json.Meta] }, 'first');
    const keyB = await createKey({ apply_policies: [policy.json.Meta] }, 'first');
    assert.deepEqual(
      [...(await statuses(2, '/first/a', keyA)), ...(await statuses(2, '/second/a', keyA))],
      [200, 200, 200, 429],
    );
    assert.deepEqual(
      await statuses(3, '/second/a', keyB),
      [200, 200, 200],
      'another key of the same policy has its own counter',
    );
  });

  describe('quotas', () => {
    let key: string;
    before(async () => {
      key = await createKey({ quota_max: 3, quota_renewal_rate: 3600 }, 'quota');
    });

    it('sends X-RateLimit-* for the quota (the default header mode)', async () => {
      const res = await call('/quota/a', key);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '3');
      assert.equal(res.headers.get('x-ratelimit-remaining'), '2');
      assert.ok(Number(res.headers.get('x-ratelimit-reset')) > Date.now() / 1000 + 3500);
    });

    it('shows the remaining quota on the key', async () => {
      const fetched = await dashboard(`/apis/${ids.quota}/keys/${key}`);
      assert.equal(fetched.json.data.quota_remaining, 2);
      assert.ok(fetched.json.data.quota_renews > Date.now() / 1000);
    });

    it('refuses the key past its quota with 403 Quota exceeded, and emits QuotaExceeded', async () => {
      assert.deepEqual(await statuses(3, '/quota/a', key), [200, 200, 403]);
      const res = await call('/quota/a', key);
      assert.deepEqual(res.json, { error: 'Quota exceeded' });
      const event = events.find((e) => e.event === 'QuotaExceeded');
      assert.ok(event, 'QuotaExceeded was published');
      assert.equal(event.api_id, ids.quota);
      assert.equal(event.org_id, tenant.orgId);
      assert.match(event.key, /^[0-9a-f]{64}$/);
      assert.ok(Date.parse(event.time) > 0);
      assert.equal(event.meta?.path, '/quota/a');
      assert.equal(event.meta?.client_ip, '127.0.0.1');
      assert.equal(event.meta?.quota_max, 3);
    });
  });

  describe('throttling', () => {
    /** The limiter's refusals of a key's requests: each check of a held request that is still over the limit. */
    const refusals = (keyHash: string) =>
      events.filter((e) => e.event === 'RatelimitExceeded' && e.key === keyHash).length;
    /** The hash of the key of the newest refusal on an API (the only key being refused on it at that moment). */
    const refusedKey = async (api: string) =>
      eventually(() => {
        const event = [...events].reverse().find((e) => e.event === 'RatelimitExceeded' && e.api_id === ids[api]);
        assert.ok(event, 'a request was refused');
        return event.key;
      });
    const timed = async (path: string, key: string) => {
      const started = Date.now();
      const { status } = await call(path, key);
      return { status, waited: Date.now() - started };
    };

    it('holds requests over the limit, re-checking them, and lets one through per slot as capacity frees up', async () => {
      await createApi('throttle-release');
      // One request per second; a held request is checked again every 200 ms, at most 20 times (4 s).
      const key = await createKey(
        { rate: 1, per: 1, throttle_interval: 0.2, throttle_retry_limit: 20 },
        'throttle-release',
      );
      assert.equal((await call('/throttle-release/a', key)).status, 200);
      const [first, second] = (
        await Promise.all([timed('/throttle-release/b', key), timed('/throttle-release/c', key)])
      ).sort((a, b) => a.waited - b.waited);
      assert.deepEqual([first.status, second.status], [200, 200]);
      // Released when the slot frees (1 s), not at the end of the retries (4 s); the next one a slot later.
      assert.ok(first.waited >= 800 && first.waited < 1700, `first held for ${first.waited} ms`);
      assert.ok(second.waited >= first.waited + 700 && second.waited < 3000, `second held for ${second.waited} ms`);
      const checks = refusals(await refusedKey('throttle-release'));
      assert.ok(
        checks >= 8 && checks <= 16,
        `the limiter refused the held requests ${checks} times (every 200 ms while held)`,
      );
    });

    it('answers 429 after about interval × retry limit when capacity does not free up', async () => {
      await createApi('throttle-refuse');
      const key = await createKey(
        { rate: 1, per: 60, throttle_interval: 0.5, throttle_retry_limit: 3 },
        'throttle-refuse',
      );
      await call('/throttle-refuse/a', key);
      const { status, waited } = await timed('/throttle-refuse/a', key);
      assert.equal(status, 429);
      assert.ok(waited >= 1400 && waited < 3000, `answered after ${waited} ms`);
      const keyHash = await refusedKey('throttle-refuse');
      await eventually(() => assert.equal(refusals(keyHash), 4, 'the first check and 3 retries'));
    });

    it('does not throttle when the retry limit is 0', async () => {
      const key = await createKey({ rate: 1, per: 60, throttle_interval: 1, throttle_retry_limit: 0 }, 'throttled');
      await call('/throttled/a', key);
      const started = Date.now();
      assert.equal((await call('/throttled/a', key)).status, 429);
      assert.ok(Date.now() - started < 500);
    });

    it('drops a held request whose client went away: no more checks, and the upstream never sees it', async () => {
      await createApi('throttle-drop');
      const session = { rate: 1, per: 60, throttle_interval: 0.1, throttle_retry_limit: 50 };
      const gone = await createKey(session, 'throttle-drop');
      const other = await createKey({ ...session, throttle_retry_limit: 4 }, 'throttle-drop');
      await call('/throttle-drop/a', gone);
      await call('/throttle-drop/a', other);
      const before = upstream.received.length;
      const req = request(`${node.gatewayUrl}/throttle-drop/held`, { headers: { authorization: gone } });
      req.on('error', () => undefined);
      req.end();
      const goneHash = await refusedKey('throttle-drop');
      req.destroy();
      const checksWhenGone = refusals(goneHash);
      // The other key's held request is the clock: 5 checks 100 ms apart, then 429.
      assert.equal((await call('/throttle-drop/b', other)).status, 429);
      const otherHash = await refusedKey('throttle-drop');
      await eventually(() => assert.equal(refusals(otherHash), 5));
      assert.notEqual(otherHash, goneHash);
      assert.ok(
        refusals(goneHash) <= checksWhenGone + 1,
        `checked ${refusals(goneHash) - checksWhenGone} more times after the client went away`,
      );
      assert.equal(upstream.received.length, before);
      assert.equal((await call('/open-off/a')).status, 200, 'the gateway is still serving');
    });
  });
});

describe('rate limits with an unreachable Redis', () => {
  let node: TestNode;
  let upstream: Upstream;
  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode({ redisUrl: 'redis://127.0.0.1:1' });
  });
  after(async () => {
    await node.stop();
    await upstream.close();
    removeDir(node.dataDir);
  });

  it('answers 503 with a clear error, never a pass or a 401/403', async () => {
    const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
    // 2 per second is below drl_threshold (5) × 1 gateway: the limit is kept in the shared store.
    await gw('/apis', {
      method: 'POST',
      body: {
        api_id: 'limited',
        name: 'limited',
        use_keyless: true,
        global_rate_limit: { rate: 2, per: 1 },
        proxy: { listen_path: '/limited', target_url: upstream.url },
      },
    });
    const res = await http(`${node.gatewayUrl}/limited/a`);
    assert.equal(res.status, 503);
    assert.deepEqual(res.json, { error: 'The rate limiter store is not reachable, please try again later' });
    assert.equal(upstream.received.length, 0);
  });
});
