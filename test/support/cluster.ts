import { randomBytes } from 'node:crypto';
import type { GwConfig } from '../../lib/config/load-config';
import type { TestDatabase } from './mysql';
import { removeDir, startTestNode, type TestNode } from './node';
import type { Upstream } from './upstream';

/**
 * Nodes of one test cluster over the real NATS server: a namespace of their own (so suites never
 * see each other's nodes) and the secrets every node of the cluster shares.
 */
export function clusterSettings(natsUrl: string | undefined, extra: Partial<GwConfig> = {}): Partial<GwConfig> {
  const namespace = `gw-test-${randomBytes(4).toString('hex')}`;
  return {
    transporter: natsUrl,
    namespace,
    secret: 'cluster-gateway-secret',
    adminSecret: 'cluster-admin-secret',
    ...extra,
  };
}

/**
 * A gateway-role node; its database URL points nowhere, so a test fails if it ever opens one. It
 * runs on one thread (its broker is the gateway's) unless `overrides` set `workers`.
 */
export function startGatewayNode(cluster: Partial<GwConfig>, overrides: Partial<GwConfig> = {}): Promise<TestNode> {
  return startTestNode({
    ...cluster,
    services: ['gateway'],
    workers: '1',
    nodeId: `gateway-${randomBytes(3).toString('hex')}`,
    databaseUrl: 'mysql://nobody@127.0.0.1:1/never-opened',
    ...overrides,
  });
}

/** A management-role node on the given database. */
export function startManagementNode(
  cluster: Partial<GwConfig>,
  database: TestDatabase,
  overrides: Partial<GwConfig> = {},
): Promise<TestNode> {
  return startTestNode({
    ...cluster,
    services: ['management'],
    nodeId: `management-${randomBytes(3).toString('hex')}`,
    databaseUrl: database.url,
    ...overrides,
  });
}

/** Stops what a cluster suite started, whatever part of its `before` got done. */
export async function stopCluster(parts: {
  nodes: Array<TestNode | undefined>;
  upstream?: Upstream;
  database?: TestDatabase;
}): Promise<void> {
  for (const node of parts.nodes) {
    if (!node) continue;
    await node.stop();
    removeDir(node.dataDir);
  }
  await parts.upstream?.close();
  await parts.database?.drop();
}
