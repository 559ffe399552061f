import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../lib/config/load-config';

describe('config: loadConfig', () => {
  it('applies the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    assert.equal(config.gatewayPort, 8080);
    assert.equal(config.dashboardPort, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, 'sqlite:./data/gw.sqlite');
    assert.equal(config.transporter, undefined);
    assert.deepEqual(config.services, ['all']);
    assert.equal(config.appsDir, './apps');
    assert.equal(config.pageSize, 10);
    assert.equal(config.secret, undefined);
  });

  it('reads the fixed environment variable names and converts types', () => {
    const config = loadConfig({
      GW_GATEWAY_PORT: '9090',
      GW_DASHBOARD_PORT: '3100',
      GW_HOST: '0.0.0.0',
      GW_SECRET: 's',
      GW_ADMIN_SECRET: 'a',
      GW_DATABASE_URL: 'mysql://root@127.0.0.1:3306/test',
      GW_TRANSPORTER: 'nats://127.0.0.1:4222',
      GW_REDIS_URL: 'redis://127.0.0.1:6379',
      GW_SERVICES: 'gateway, auth',
      GW_APPS_DIR: '/etc/gw/apps',
    });
    assert.equal(config.gatewayPort, 9090);
    assert.equal(config.dashboardPort, 3100);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.secret, 's');
    assert.equal(config.adminSecret, 'a');
    assert.equal(config.databaseUrl, 'mysql://root@127.0.0.1:3306/test');
    assert.equal(config.transporter, 'nats://127.0.0.1:4222');
    assert.equal(config.redisUrl, 'redis://127.0.0.1:6379');
    assert.deepEqual(config.services, ['gateway', 'auth']);
    assert.equal(config.appsDir, '/etc/gw/apps');
  });

  it('layers defaults < GW_CONFIG file < environment < overrides', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-config-')), 'gw.json');
    writeFileSync(file, JSON.stringify({ gatewayPort: 7000, dashboardPort: 7001, host: '10.0.0.1' }));
    const config = loadConfig(
      { GW_CONFIG: file, GW_DASHBOARD_PORT: '7002', GW_HOST: '10.0.0.2' },
      { host: '10.0.0.3' },
    );
    assert.equal(config.gatewayPort, 7000);
    assert.equal(config.dashboardPort, 7002);
    assert.equal(config.host, '10.0.0.3');
  });

  it('reads GW_PLUGIN_PACKAGES as a comma list (a JSON array in GW_CONFIG), empty by default', () => {
    assert.deepEqual(loadConfig({}).pluginPackages, []);
    assert.deepEqual(loadConfig({ GW_PLUGIN_PACKAGES: 'gw-plugin-audit, @acme/gw-auth' }).pluginPackages, [
      'gw-plugin-audit',
      '@acme/gw-auth',
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'gw-config-')), 'gw.json');
    writeFileSync(file, JSON.stringify({ pluginPackages: ['gw-plugin-audit'] }));
    const config = loadConfig({ GW_CONFIG: file });
    assert.deepEqual(config.pluginPackages, ['gw-plugin-audit']);
    assert.ok(Object.isFrozen(config.pluginPackages));
  });

  it('freezes the result', () => {
    const config = loadConfig({});
    assert.ok(Object.isFrozen(config));
    assert.ok(Object.isFrozen(config.services));
  });

  const invalid: Array<[string, NodeJS.ProcessEnv, RegExp]> = [
    [
      'a port that is not a number',
      { GW_GATEWAY_PORT: 'eighty' },
      /GW_GATEWAY_PORT: The 'gatewayPort' field must be a number/,
    ],
    ['a port out of range', { GW_DASHBOARD_PORT: '70000' }, /GW_DASHBOARD_PORT/],
    [
      'an unsupported database',
      { GW_DATABASE_URL: 'postgres://x' },
      /GW_DATABASE_URL must start with 'sqlite:' or 'mysql:\/\/'/,
    ],
    ['an unknown log level', { GW_LOG_LEVEL: 'loud' }, /GW_LOG_LEVEL/],
    [
      'a plugin package that is a path',
      { GW_PLUGIN_PACKAGES: 'ok-name,/tmp/evil.js' },
      /GW_PLUGIN_PACKAGES: '\/tmp\/evil.js' is not an npm package name/,
    ],
    [
      'a dashboard URL that is not an origin',
      { GW_DASHBOARD_URL: 'https://dash.example/ui' },
      /GW_DASHBOARD_URL must be the dashboard's origin/,
    ],
    [
      'a dashboard URL without a scheme',
      { GW_DASHBOARD_URL: 'dash.example' },
      /GW_DASHBOARD_URL must be the dashboard's origin/,
    ],
  ];
  for (const [what, env, message] of invalid) {
    it(`refuses ${what}`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: Error) => err instanceof ConfigError && message.test(err.message),
      );
    });
  }

  it('takes the dashboard origin GW_DASHBOARD_URL', () => {
    assert.equal(
      loadConfig({ GW_DASHBOARD_URL: 'https://dash.example:8443' }).dashboardUrl,
      'https://dash.example:8443',
    );
    assert.equal(loadConfig({}).dashboardUrl, undefined);
  });

  it('names the replacement of a renamed variable', () => {
    assert.throws(() => loadConfig({ GW_PORT: '8080' }), /unsupported GW_PORT, use GW_GATEWAY_PORT instead/);
  });

  it('refuses an unknown key in the GW_CONFIG file, listing the known ones', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-config-')), 'gw.json');
    writeFileSync(file, JSON.stringify({ port: 1 }));
    assert.throws(() => loadConfig({ GW_CONFIG: file }), /unknown option 'port'.*known options: gatewayPort/);
  });

  it('refuses a GW_CONFIG file that is not JSON', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gw-config-')), 'gw.json');
    writeFileSync(file, 'port=1');
    assert.throws(() => loadConfig({ GW_CONFIG: file }), /GW_CONFIG: cannot read/);
  });
});
