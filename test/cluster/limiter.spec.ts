import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';
import type { GwConfig } from '../../lib/config/load-config';

/**
 * Two gateway nodes over the real NATS server sharing one limit, with Redis as the shared
 * store. Runs when GW_TEST_NATS and GW_TEST_REDIS are set (.ci/run sets both).
 */
describe('cluster: one API limit enforced by two gateway nodes', function () {
  this.timeout(60_000);
  const natsUrl = process.env.GW_TEST_NATS;
  const redisUrl = process.env.GW_TEST_REDIS;
  let upstream: Upstream;
  let appsDir: string;
  // Its own API id per run, so no counter left in Redis by an earlier run counts here.
  const apiId = `limited-${randomBytes(4).toString('hex')}`;

  before(async function () {
    if (!natsUrl || !redisUrl) this.skip();
    upstream = await startUpstream();
    appsDir = mkdtempSync(join(tmpdir(), 'gw-cluster-apps-'));
    mkdirSync(appsDir, { recursive: true });
    // 100 per 10 s is 10 per second: at the drl_threshold (5) × 2 gateways, so DRL applies.
    writeFileSync(
      join(appsDir, 'limited.json'),
      JSON.stringify({
        api_id: apiId,
        use_keyless: true,
        global_rate_limit: { rate: 100, per: 10 },
        proxy: { listen_path: '/limited', target_url: upstream.url },
      }),
    );
  });
  after(async () => {
    if (!natsUrl || !redisUrl) return;
    await upstream.close();
    removeDir(appsDir);
  });

  async function startPair(options: Partial<GwConfig>): Promise<TestNode[]> {
    const namespace = `gw-limit-${randomBytes(4).toString('hex')}`;
    const nodes: TestNode[] = [];
    for (const name of ['a', 'b']) {
      nodes.push(
        await startTestNode({
          services: ['gateway'],
          // one limiter per node, as the waits below count (workers: test/integration/workers.spec.ts)
          workers: '1',
          transporter: natsUrl,
          redisUrl,
          namespace,
          nodeId: `gateway-${name}-${namespace}`,
          appsDir,
          ...options,
        }),
      );
    }
    // Both limiters must see each other before the allowance is shared.
    for (let i = 0; i < 50; i++) {
      const seen = nodes.every(
        (node) =>
          (node.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ name: string }>).filter(
            (s) => s.name === 'limiter',
          ).length === 2,
      );
      if (seen) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return nodes;
  }

  async function hammer(nodes: TestNode[], total: number): Promise<number> {
    let passed = 0;
    for (let batch = 0; batch < total / 10; batch++) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => http(`${nodes[(batch * 10 + i) % 2].gatewayUrl}/limited/x`)),
      );
      passed += results.filter((r) => r.status === 200).length;
    }
    return passed;
  }

  it('sliding log in Redis: the two nodes together let exactly the limit through', async () => {
    const nodes = await startPair({ enableSentinelRateLimiter: true });
    try {
      assert.equal(await hammer(nodes, 150), 100);
    } finally {
      for (const node of nodes) await node.stop();
      for (const node of nodes) removeDir(node.dataDir);
    }
  });

  it('distributed rate limiter: each node enforces its share, the sum within 10% of the limit', async () => {
    const nodes = await startPair({});
    try {
      const passed = await hammer(nodes, 150);
      assert.ok(passed >= 90 && passed <= 110, `${passed} passed`);
    } finally {
      for (const node of nodes) await node.stop();
      for (const node of nodes) removeDir(node.dataDir);
    }
  });
});
