import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type GwConfig } from '../../lib/config/load-config';
import { startNode, type RunningNode } from '../../app/node';

export interface TestNode extends RunningNode {
  dashboardUrl: string;
  gatewayUrl: string;
  dataDir: string;
  adminHeaders: Record<string, string>;
  gwHeaders: Record<string, string>;
}

/**
 * Starts a gw node in this process with its own data directory, ports picked by the OS, and
 * quiet logs (GW_TEST_LOG_LEVEL=info shows them). `overrides` win over everything.
 */
export async function startTestNode(overrides: Partial<GwConfig> = {}): Promise<TestNode> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'gw-test-'));
  const config = loadConfig(
    {},
    {
      gatewayPort: 0,
      dashboardPort: 0,
      dataDir,
      databaseUrl: `sqlite:${join(dataDir, 'gw.sqlite')}`,
      appsDir: join(dataDir, 'apps'),
      logLevel: (process.env.GW_TEST_LOG_LEVEL as GwConfig['logLevel']) ?? 'silent',
      ...overrides,
    },
  );
  const node = await startNode(config);
  const dashboardPort = node.portOf('api');
  const gatewayPort = node.portOf('proxy');
  return {
    ...node,
    dataDir,
    dashboardUrl: dashboardPort === undefined ? '' : `http://127.0.0.1:${dashboardPort}`,
    gatewayUrl: gatewayPort === undefined ? '' : `http://127.0.0.1:${gatewayPort}`,
    adminHeaders: { 'admin-auth': node.config.adminSecret },
    gwHeaders: { 'x-gw-authorization': node.config.secret },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
