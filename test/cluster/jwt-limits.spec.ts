import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { clusterSettings, startGatewayNode, startManagementNode, stopCluster } from '../support/cluster';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { freshClaims, hmacKey, signToken } from '../support/jwt-tokens';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import type { TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * The limits of a JWT identity are one allowance however many gateway nodes serve it: two
 * gateway nodes over the real NATS server count in Redis, under the name the token's identity
 * gives its session, so a client alternating between them gets exactly its policy's rate and
 * quota. Runs when GW_TEST_NATS, GW_TEST_MYSQL and GW_TEST_REDIS are set (.ci/run sets them).
 */
describe('cluster: rate limit and quota of a JWT identity across two gateway nodes', function () {
  this.timeout(60_000);
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  const redisUrl = process.env.GW_TEST_REDIS;
  const cluster = clusterSettings(natsUrl);
  const hmac = hmacKey();
  // Redis outlives the suite: identities of their own per run, so no earlier run's counter counts
  const run = randomBytes(4).toString('hex');
  let database: TestDatabase;
  let management: TestNode;
  let gateways: TestNode[] = [];
  let upstream: Upstream;
  let tenant: Tenant;
  const policies: Record<'rate' | 'quota', string> = { rate: '', quota: '' };

  const dashboard = (path: string, options: { method?: string; body?: unknown } = {}) =>
    http(`${management.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
  const tokenOf = (name: string, policy: keyof typeof policies) =>
    signToken(hmac, freshClaims({ sub: `${name}-${run}`, pol: policies[policy] }));
  /** the statuses of `count` calls, alternating between the nodes from `firstNode` on */
  const alternate = async (token: string, count: number, firstNode = 0) => {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) {
      const node = gateways[(firstNode + i) % gateways.length];
      const res = await http(`${node.gatewayUrl}/limited/x`, { headers: { authorization: `Bearer ${token}` } });
      seen.push(res.status);
    }
    return seen;
  };

  before(async function () {
    if (!natsUrl || !mysqlUrl || !redisUrl) this.skip();
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    management = await startManagementNode(cluster, database);
    gateways = [await startGatewayNode(cluster, { redisUrl }), await startGatewayNode(cluster, { redisUrl })];
    tenant = await createTenant(management.dashboardUrl, management.adminHeaders, 'JWT Cluster');

    const created = await dashboard('/apis', {
      method: 'POST',
      body: keylessApi('Limited', '/limited', upstream.url, {
        use_keyless: false,
        enable_jwt: true,
        jwt_signing_method: 'hmac',
        jwt_source: Buffer.from(hmac.secret).toString('base64'),
        jwt_policy_field_name: 'pol',
      }),
    });
    assert.equal(created.status, 200, created.text);
    const apiId = created.json.ID as string;
    const access = { [apiId]: { api_id: apiId } };
    const bodies = {
      rate: { name: 'four a minute', rate: 4, per: 60, access_rights: access },
      quota: {
        name: 'three in all',
        rate: 1000,
        per: 60,
        quota_max: 3,
        quota_renewal_rate: 3600,
        access_rights: access,
      },
    };
    for (const name of ['rate', 'quota'] as const) {
      const policy = await dashboard('/portal/policies', { method: 'POST', body: bodies[name] });
      assert.equal(policy.status, 200, policy.text);
      policies[name] = policy.json.Meta;
    }
    // both nodes serve the API and know both policies (an identity of its own per probe)
    for (const [index, node] of gateways.entries())
      for (const name of ['rate', 'quota'] as const) {
        const probe = await tokenOf(`probe-${index}-${name}`, name);
        await eventually(
          async () =>
            assert.equal(
              (await http(`${node.gatewayUrl}/limited/ready`, { headers: { authorization: `Bearer ${probe}` } }))
                .status,
              200,
            ),
          5000,
          50,
        );
      }
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl || !redisUrl) return;
    await stopCluster({ nodes: [...gateways, management], upstream, database });
  });

  it('lets exactly 4 requests of one identity through, whichever node each reaches; the 5th is 429 on both', async () => {
    const alice = await tokenOf('alice', 'rate');
    assert.deepEqual(await alternate(alice, 4), [200, 200, 200, 200]);
    assert.deepEqual(await alternate(alice, 2), [429, 429]);
    assert.deepEqual(await alternate(alice, 2, 1), [429, 429]);
    // another identity of the same policy has its own allowance, on either node
    const bob = await tokenOf('bob', 'rate');
    assert.deepEqual(await alternate(bob, 2, 1), [200, 200]);
  });

  it('holds a quota of 3 exactly across the nodes', async () => {
    const carol = await tokenOf('carol', 'quota');
    assert.deepEqual(await alternate(carol, 3), [200, 200, 200]);
    for (const node of gateways) {
      const res = await http(`${node.gatewayUrl}/limited/x`, { headers: { authorization: `Bearer ${carol}` } });
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json.error, 'Quota exceeded');
    }
    const dave = await tokenOf('dave', 'quota');
    assert.deepEqual(await alternate(dave, 2, 1), [200, 200]);
  });
});
