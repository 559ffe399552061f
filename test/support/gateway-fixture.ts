import { strict as assert } from 'node:assert';
import { http, type HttpOptions, type HttpResult } from './http';
import { removeDir, startTestNode, type TestNode } from './node';
import { startUpstream, type Upstream } from './upstream';
import type { GwConfig } from '../../lib/config/load-config';

export interface GatewayFixture {
  node: TestNode;
  upstream: Upstream;
  /** adds (or replaces) an API through /gw/apis; it is served when this resolves */
  addApi(definition: Record<string, unknown>): Promise<void>;
  /** a request to the gateway port */
  call(path: string, options?: HttpOptions): Promise<HttpResult>;
  stop(): Promise<void>;
}

/** A gateway node with one recording upstream, for tests of the request path. */
export async function startGatewayFixture(overrides: Partial<GwConfig> = {}): Promise<GatewayFixture> {
  const upstream = await startUpstream();
  const node = await startTestNode(overrides);
  const gw = (path: string, options: HttpOptions = {}) =>
    http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });
  return {
    node,
    upstream,
    async addApi(definition) {
      const apiId = definition.api_id as string;
      const exists = (await gw(`/apis/${apiId}`)).status === 200;
      const res = exists
        ? await gw(`/apis/${apiId}`, { method: 'PUT', body: definition })
        : await gw('/apis', { method: 'POST', body: definition });
      assert.equal(res.status, 200, res.text);
    },
    call: (path, options) => http(`${node.gatewayUrl}${path}`, options),
    async stop() {
      await node.stop();
      await upstream.close();
      removeDir(node.dataDir);
    },
  };
}

/** A keyless classic definition for /gw/apis, with the given extra fields. */
export function apiDefinition(
  apiId: string,
  listenPath: string,
  targetUrl: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    api_id: apiId,
    name: apiId,
    use_keyless: true,
    active: true,
    proxy: { listen_path: listenPath, target_url: targetUrl, strip_listen_path: true },
    ...extra,
  };
}

/** A one-version definition block (`version_data`) with the given version fields. */
export function singleVersion(fields: Record<string, unknown>): Record<string, unknown> {
  return { not_versioned: true, default_version: 'Default', versions: { Default: { name: 'Default', ...fields } } };
}
