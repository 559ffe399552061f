import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { createTestDatabase, type TestDatabase } from '../support/mysql';
import { removeDir } from '../support/node';
import { exited, killProgram, startProgram, type StartedProgram } from '../support/program';
import { startUpstream, type Upstream } from '../support/upstream';

const ROOT = resolve(__dirname, '../..');

/** KEY=VALUE lines of an env file, as docker compose's env_file reads them (comments and blank lines skipped). */
function readEnvFile(name: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of readFileSync(join(ROOT, 'deploy', name), 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    assert.ok(eq > 0, `deploy/${name}: not KEY=VALUE: ${trimmed}`);
    vars[trimmed.slice(0, eq)] = trimmed.slice(eq + 1);
  }
  return vars;
}

/** The container HEALTHCHECK (app/healthcheck.ts) run with a role's environment. */
function healthCheck(env: NodeJS.ProcessEnv): Promise<number | null> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), join(ROOT, 'app/healthcheck.ts')], {
    env: { PATH: process.env.PATH, ...env },
    stdio: 'ignore',
  });
  return exited(child);
}

/**
 * The two roles as deploy/ ships them: each a process of the start command with exactly the
 * variables of deploy/management.env and deploy/gateway.env, against the local NATS and
 * MariaDB, so the manifests cannot drift from what runs. Runs when GW_TEST_NATS and
 * GW_TEST_MYSQL are set. Overridden, because a shared test machine cannot share them:
 *  - the ports (0: 3000 and 8080 may be taken),
 *  - the database name (a fresh database on the same server, dropped afterwards),
 *  - GW_NAMESPACE (other suites' nodes on the same NATS stay out of sight),
 * and the secrets are given in the environment, as the files ask and compose.yaml does.
 */
describe('deploy: the two roles started with exactly deploy/*.env', function () {
  this.timeout(60_000);
  const natsUrl = process.env.GW_TEST_NATS;
  const mysqlUrl = process.env.GW_TEST_MYSQL;
  const secrets = { GW_SECRET: 'deploy-gateway-secret', GW_ADMIN_SECRET: 'deploy-admin-secret' };
  const namespace = `gw-deploy-${randomBytes(4).toString('hex')}`;
  const dirs: string[] = [];
  let database: TestDatabase;
  let upstream: Upstream;
  let management: StartedProgram;
  let gateway: StartedProgram;
  let managementEnv: Record<string, string>;
  let gatewayEnv: Record<string, string>;
  let tenant: Tenant;

  before(async function () {
    if (!natsUrl || !mysqlUrl) this.skip();
    upstream = await startUpstream();
    database = await createTestDatabase(mysqlUrl);
    const fromFile = readEnvFile('management.env');
    const fileDatabase = new URL(fromFile.GW_DATABASE_URL);
    const freshDatabase = new URL(database.url);
    fileDatabase.pathname = freshDatabase.pathname;
    managementEnv = {
      ...fromFile,
      ...secrets,
      GW_DASHBOARD_PORT: '0',
      GW_DATABASE_URL: fileDatabase.toString(),
      GW_NAMESPACE: namespace,
    };
    gatewayEnv = { ...readEnvFile('gateway.env'), ...secrets, GW_GATEWAY_PORT: '0', GW_NAMESPACE: namespace };
    const cwd = () => {
      dirs.push(mkdtempSync(join(tmpdir(), 'gw-deploy-')));
      return dirs.at(-1)!;
    };
    // The management node first, as compose starts them: an API created before the management
    // node has discovered the gateway misses the broadcast, and the gateway must still converge
    // (the store announces its revision when the gateway joins).
    management = await startProgram(cwd(), managementEnv);
    gateway = await startProgram(cwd(), gatewayEnv);
    tenant = await createTenant(management.dashboardUrl!, { 'admin-auth': secrets.GW_ADMIN_SECRET }, 'Deploy');
  });
  after(async () => {
    await killProgram(gateway?.child);
    await killProgram(management?.child);
    await upstream?.close();
    await database?.drop();
    dirs.forEach(removeDir);
  });

  it('declares the roles the files say, on the local NATS', () => {
    assert.deepEqual([managementEnv.GW_SERVICES, gatewayEnv.GW_SERVICES], ['management', 'gateway']);
    assert.equal(managementEnv.GW_TRANSPORTER, natsUrl);
    assert.equal(gatewayEnv.GW_TRANSPORTER, natsUrl);
    assert.equal(management.gatewayUrl, undefined, 'the management role opens no gateway port');
    assert.equal(gateway.dashboardUrl, undefined, 'the gateway role opens no dashboard port');
  });

  it('serves through the gateway node a keyless API created on the management node', async () => {
    const created = await http(`${management.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: tenant.headers,
      body: keylessApi('Deployed', '/deployed', upstream.url),
    });
    assert.equal(created.status, 200, created.text);
    const res = await eventually(
      async () => {
        const answer = await http(`${gateway.gatewayUrl}/deployed/orders?x=1`);
        assert.equal(answer.status, 200, answer.text);
        return answer;
      },
      10_000,
      100,
    );
    assert.equal(res.headers.get('x-upstream'), 'yes');
    assert.equal(upstream.received.at(-1)?.url, '/orders?x=1');
  });

  it('passes the container health check of each role', async () => {
    const portOf = (url: string) => new URL(url).port;
    assert.equal(await healthCheck({ ...managementEnv, GW_DASHBOARD_PORT: portOf(management.dashboardUrl!) }), 0);
    assert.equal(await healthCheck({ ...gatewayEnv, GW_GATEWAY_PORT: portOf(gateway.gatewayUrl!) }), 0);
    assert.equal(
      await healthCheck({ ...gatewayEnv, GW_GATEWAY_PORT: portOf(management.dashboardUrl!) }),
      1,
      'a gateway health check on the wrong port fails',
    );
  });

  it('stops each role on SIGTERM with exit code 0', async () => {
    for (const role of [gateway, management]) {
      const code = exited(role.child);
      role.child.kill('SIGTERM');
      assert.equal(await code, 0, role.output());
    }
  });
});
