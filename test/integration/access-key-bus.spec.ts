import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceBroker, type ActionHandler, type ActionSchema, type Context, type Middleware } from 'moleculer';
import { brokerOptions } from '../../moleculer.config';
import { loadConfig } from '../../lib/config/load-config';
import { createRuntime, type Runtime } from '../../lib/runtime';
import { SERVICE_FACTORIES } from '../../services';
import { createTenant, type Tenant } from '../support/bootstrap';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

/**
 * The `users` service on a broker of its own, reached over a transporter (Moleculer's in-memory
 * `Fake` one, which serialises every message as NATS would): what `users.authenticate` receives
 * is what crossed the bus.
 */
describe('dashboard access keys cross the bus only as their hash', () => {
  const namespace = `gw-akey-${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-akey-'));
  const shared = {
    transporter: 'Fake',
    namespace,
    dataDir,
    databaseUrl: `sqlite:${join(dataDir, 'gw.sqlite')}`,
    logLevel: 'silent' as const,
  };
  const received: Array<Record<string, unknown>> = [];
  let usersRuntime: Runtime;
  let usersBroker: ServiceBroker;
  let node: TestNode;
  let tenant: Tenant;

  const recorder: Middleware = {
    localAction(handler: ActionHandler, action: ActionSchema) {
      if (action.name !== 'users.authenticate') return handler;
      return (ctx: Context<Record<string, unknown>>) => {
        received.push(structuredClone(ctx.params));
        return handler(ctx);
      };
    },
  };

  before(async () => {
    const config = loadConfig(
      {},
      {
        ...shared,
        gatewayPort: 0,
        dashboardPort: 0,
        appsDir: join(dataDir, 'apps'),
        services: ['users'],
        nodeId: `users-${namespace}`,
      },
    );
    const usersConfig = Object.freeze({ ...config, secret: 'unused', adminSecret: 'unused' });
    usersRuntime = createRuntime(usersConfig);
    usersBroker = new ServiceBroker({ ...brokerOptions(usersConfig), middlewares: [recorder] });
    usersBroker.createService(SERVICE_FACTORIES.users(usersRuntime));
    await usersBroker.start();
    node = await startTestNode({
      ...shared,
      services: Object.keys(SERVICE_FACTORIES).filter((name) => name !== 'users'),
      nodeId: `rest-${namespace}`,
    });
    await node.broker.waitForServices(['users'], 10_000);
    await usersBroker.waitForServices(['orgs'], 10_000);
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Busco');
  });
  after(async () => {
    await node?.stop();
    await usersBroker?.stop();
    await usersRuntime?.close();
    removeDir(dataDir);
  });
  beforeEach(() => {
    received.length = 0;
  });

  it('logs in with the access key, and users.authenticate receives only its hash', async () => {
    const res = await http(`${node.dashboardUrl}/api/users`, { headers: { authorization: tenant.accessKey } });
    assert.equal(res.status, 200, res.text);
    assert.equal(received.length, 1);
    assert.ok(
      !JSON.stringify(received).includes(tenant.accessKey),
      `plaintext key on the bus: ${JSON.stringify(received)}`,
    );
    assert.deepEqual(Object.keys(received[0]), ['access_key_hash']);
    assert.match(String(received[0].access_key_hash), /^[0-9a-f]{64}$/);
    const wrong = await http(`${node.dashboardUrl}/api/users`, { headers: { authorization: `${tenant.accessKey}x` } });
    assert.equal(wrong.status, 403, wrong.text);
  });

  it('keeps the session cookie path working', async () => {
    const users = (await http(`${node.dashboardUrl}/api/users`, { headers: tenant.headers })).json.users as Array<{
      email_address: string;
    }>;
    const login = await http(`${node.dashboardUrl}/api/login`, {
      method: 'POST',
      body: { email_address: users[0].email_address, password: 'correct horse' },
    });
    assert.equal(login.status, 200, login.text);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const res = await http(`${node.dashboardUrl}/api/users`, { headers: { cookie } });
    assert.equal(res.status, 200, res.text);
  });
});
