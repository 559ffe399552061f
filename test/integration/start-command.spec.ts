import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { http } from '../support/http';
import { removeDir } from '../support/node';

const ROOT = resolve(__dirname, '../..');

interface Started {
  child: ChildProcess;
  banner: string;
  dashboardUrl: string;
  gatewayUrl: string;
}

/** Runs the program `npm start` runs (app/main.ts, here through tsx) in `cwd`, until its banner. */
function startProgram(cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), join(ROOT, 'app/main.ts')], {
    cwd,
    env: { PATH: process.env.PATH, GW_GATEWAY_PORT: '0', GW_DASHBOARD_PORT: '0', GW_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const dashboard = /Dashboard:\s+(http:\/\/\S+)/.exec(output);
      const gateway = /Gateway:\s+(http:\/\/\S+)/.exec(output);
      if (dashboard && gateway && output.includes('\n\n', output.indexOf('Gateway:'))) {
        resolvePromise({ child, banner: output, dashboardUrl: dashboard[1], gatewayUrl: gateway[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

function stopProgram(child: ChildProcess): Promise<number | null> {
  return new Promise((resolvePromise) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => resolvePromise(code));
    child.kill('SIGTERM');
  });
}

describe('the start command (app/main.ts)', function () {
  this.timeout(60_000);
  let cwd: string;
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), 'gw-start-'));
  });
  after(() => removeDir(cwd));

  it('starts every service on the embedded defaults and prints the URLs and, at first start only, the secrets', async () => {
    const first = await startProgram(cwd);
    const adminSecret = /admin-auth:\s+([0-9a-f]{32})/.exec(first.banner)?.[1];
    const gatewaySecret = /x-gw-authorization:\s+([0-9a-f]{32})/.exec(first.banner)?.[1];
    assert.ok(adminSecret && gatewaySecret, first.banner);
    assert.match(first.banner, /secrets were generated and kept in data\/secrets\.json/);
    assert.match(
      first.banner,
      /open the dashboard, choose "Set up gw" and give it the admin-auth secret above/,
      'the first start says how to get a dashboard user',
    );

    const orgs = await http(`${first.dashboardUrl}/admin/organisations`, { headers: { 'admin-auth': adminSecret } });
    assert.equal(orgs.status, 200);
    const apis = await http(`${first.gatewayUrl}/gw/apis`, { headers: { 'x-gw-authorization': gatewaySecret } });
    assert.deepEqual(apis.json, []);
    assert.equal(await stopProgram(first.child), 0);

    const second = await startProgram(cwd);
    try {
      assert.doesNotMatch(second.banner, /admin-auth:|x-gw-authorization:/, 'secrets are printed at first start only');
      const again = await http(`${second.dashboardUrl}/admin/organisations`, {
        headers: { 'admin-auth': adminSecret },
      });
      assert.equal(again.status, 200, 'the kept secret still works after a restart');
    } finally {
      await stopProgram(second.child);
    }
  });

  it('lets GW_ADMIN_SECRET and GW_SECRET override the kept secrets', async () => {
    const started = await startProgram(cwd, { GW_ADMIN_SECRET: 'admin-override', GW_SECRET: 'gateway-override' });
    try {
      assert.equal(
        (await http(`${started.dashboardUrl}/admin/organisations`, { headers: { 'admin-auth': 'admin-override' } }))
          .status,
        200,
      );
      assert.equal(
        (await http(`${started.gatewayUrl}/gw/apis`, { headers: { 'x-gw-authorization': 'gateway-override' } })).status,
        200,
      );
    } finally {
      await stopProgram(started.child);
    }
  });

  it('refuses to start with invalid configuration and says why', async () => {
    await assert.rejects(
      startProgram(cwd, { GW_SERVICES: 'gateway,teleporter' }),
      /GW_SERVICES: unknown service or role 'teleporter'/,
    );
  });
});
