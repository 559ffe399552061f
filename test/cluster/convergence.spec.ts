import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiDefinition, ApiRecord } from '../../contracts/apis/api-definition';
import type { KeyRecord } from '../../contracts/keys/actions';
import { keylessApi } from '../support/bootstrap';
import { startChildNode, type ChildNode } from '../support/child';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * Convergence of gateway nodes with the store over the real NATS server (management node on
 * MariaDB): changes made while a gateway node starts, while it reloads, and while it is paused
 * past the heartbeat timeout all reach it, without /gw/reload. The periodic store check is set
 * to an hour here, so these tests prove the event-driven paths (revision gaps, announcements).
 */
describe('cluster: gateway nodes converge with the store', function () {
  this.timeout(60_000);
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  const namespace = `gw-test-${randomBytes(4).toString('hex')}`;
  const secret = 'convergence-gateway-secret';
  const heartbeat = { heartbeatInterval: 1, heartbeatTimeout: 2, storeCheckInterval: 3600 };
  let database: TestDatabase;
  let management: TestNode;
  let upstream: Upstream;
  const nodes: TestNode[] = [];
  const children: ChildNode[] = [];
  const dirs: string[] = [];

  const startGateway = async (nodeId = `gateway-${randomBytes(3).toString('hex')}`) => {
    const node = await startTestNode({
      transporter: natsUrl,
      namespace,
      secret,
      services: ['gateway'],
      // one thread: these tests follow one node's registry entry (workers: test/integration/workers.spec.ts)
      workers: '1',
      nodeId,
      databaseUrl: 'mysql://nobody@127.0.0.1:1/never-opened',
      ...heartbeat,
    });
    nodes.push(node);
    return node;
  };
  const createApi = async (name: string, listenPath: string, extra: Record<string, unknown> = {}) =>
    (await management.broker.call<ApiRecord, object>('apis.create', keylessApi(name, listenPath, upstream.url, extra)))
      .api_definition;
  const removeApi = (id: string) => management.broker.call('apis.remove', { id });
  const registryNode = (node: string) =>
    (
      management.broker.registry as unknown as {
        nodes: { get(id: string): { available: boolean; services?: Array<{ name: string }> } | undefined };
      }
    ).nodes.get(node);

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    management = await startTestNode({
      transporter: natsUrl,
      namespace,
      secret,
      services: ['management'],
      nodeId: 'management',
      databaseUrl: database.url,
      ...heartbeat,
    });
  });
  after(async () => {
    if (!natsUrl || !mysqlUrl) return;
    for (const child of children) await child.kill();
    for (const node of nodes) await node.stop();
    await management?.stop();
    await upstream?.close();
    await database?.drop();
    for (const dir of [...dirs, ...nodes.map((n) => n.dataDir), management?.dataDir]) if (dir) removeDir(dir);
  });

  it('applies APIs created and deleted while a gateway node starts, before the store node has seen it', async () => {
    const doomed: ApiDefinition[] = [];
    for (let i = 0; i < 4; i++) doomed.push(await createApi(`Doomed ${i}`, `/join-doomed-${i}`));
    const nodeId = `gateway-join-${randomBytes(3).toString('hex')}`;
    let started = false;
    const starting = startGateway(nodeId).finally(() => {
      started = true;
    });
    const created: ApiDefinition[] = [];
    const deleted: ApiDefinition[] = [];
    // Keep writing until the management node lists the new node's proxy, and a little after.
    let after = 3;
    for (let i = 0; after > 0; i++) {
      created.push(await createApi(`Joined ${i}`, `/join-${i}`));
      const victim = doomed.shift();
      if (victim) {
        await removeApi(victim.id);
        deleted.push(victim);
      }
      if (started && registryNode(nodeId)?.services?.some((s) => s.name === 'proxy')) after--;
    }
    const gateway = await starting;
    await eventually(
      async () => {
        for (const api of created)
          assert.equal(
            (await http(`${gateway.gatewayUrl}${api.proxy.listen_path}/x`)).status,
            200,
            api.proxy.listen_path,
          );
        for (const api of deleted)
          assert.equal(
            (await http(`${gateway.gatewayUrl}${api.proxy.listen_path}/x`)).status,
            404,
            api.proxy.listen_path,
          );
      },
      5000,
      100,
    );
  });

  it('answers every concurrent /gw/reload with 200, and each reload reflects the store as it was when called', async () => {
    const gateway = await startGateway();
    const reload = () => http(`${gateway.gatewayUrl}/gw/reload`, { headers: gateway.gwHeaders });
    const first = await createApi('Reload kept', '/reload-kept');
    const gone = await createApi('Reload gone', '/reload-gone');
    // Reloads overlapping each other and the writes.
    const writes = Promise.all([createApi('Reload new', '/reload-new'), removeApi(gone.id)]);
    const during = await Promise.all([reload(), reload(), reload(), reload(), reload()]);
    await writes;
    // Reloads called after the writes: when they answer, the registry is the store's.
    const afterwards = await Promise.all([reload(), reload(), reload()]);
    for (const res of [...during, ...afterwards]) {
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { status: 'ok', message: '' });
    }
    const loaded = (await http(`${gateway.gatewayUrl}/gw/apis`, { headers: gateway.gwHeaders })).json as Array<{
      api_id: string;
      proxy: { listen_path: string };
    }>;
    const paths = loaded.map((api) => api.proxy.listen_path);
    assert.ok(paths.includes('/reload-kept') && paths.includes('/reload-new'), paths.join(' '));
    assert.ok(!paths.includes('/reload-gone'), paths.join(' '));
    assert.equal((await http(`${gateway.gatewayUrl}/reload-new/a`)).status, 200);
    assert.equal((await http(`${gateway.gatewayUrl}/reload-gone/a`)).status, 404);
    assert.equal((await http(`${gateway.gatewayUrl}${first.proxy.listen_path}/a`)).status, 200);
  });

  it('catches up after being paused past the heartbeat timeout: a deleted API 404s, a deleted key gets 403', async () => {
    const nodeId = `gateway-paused-${randomBytes(3).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-test-'));
    dirs.push(dataDir);
    const child = await startChildNode({
      GW_TRANSPORTER: natsUrl!,
      GW_NAMESPACE: namespace,
      GW_SERVICES: 'gateway',
      GW_WORKERS: '1',
      GW_NODE_ID: nodeId,
      GW_SECRET: secret,
      GW_GATEWAY_PORT: '0',
      GW_DATA_DIR: dataDir,
      GW_APPS_DIR: join(dataDir, 'apps'),
      GW_DATABASE_URL: 'mysql://nobody@127.0.0.1:1/never-opened',
      GW_HEARTBEAT_INTERVAL: '1',
      GW_HEARTBEAT_TIMEOUT: '2',
      GW_STORE_CHECK_INTERVAL: '3600',
    });
    children.push(child);
    const doomed = await createApi('Paused doomed', '/paused-doomed');
    const guarded = await createApi('Paused guarded', '/paused-guarded', { use_keyless: false });
    const key = await management.broker.call<KeyRecord, object>('keys.create', {
      session: { access_rights: { [guarded.api_id]: { api_id: guarded.api_id } } },
    });
    const withKey = { headers: { authorization: key.key_id } };
    await eventually(
      async () => {
        assert.equal((await http(`${child.gatewayUrl}/paused-doomed/a`)).status, 200);
        assert.equal((await http(`${child.gatewayUrl}/paused-guarded/a`, withKey)).status, 200);
      },
      10_000,
      100,
    );

    child.pause();
    await eventually(
      () => assert.equal(registryNode(nodeId)?.available, false, 'the management node gives up on the paused node'),
      15_000,
      100,
    );
    await removeApi(doomed.id);
    await management.broker.call('keys.remove', { key: key.key_id });
    const arrived = await createApi('Paused new', '/paused-new');
    child.resume();

    await eventually(
      async () => {
        assert.equal((await http(`${child.gatewayUrl}/paused-doomed/a`)).status, 404);
        assert.equal((await http(`${child.gatewayUrl}/paused-guarded/a`, withKey)).status, 403);
        assert.equal((await http(`${child.gatewayUrl}${arrived.proxy.listen_path}/a`)).status, 200);
      },
      8000,
      100,
    );
  });
});
