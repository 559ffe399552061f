import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PluginError } from '../../../plugins/sdk/errors';
import { loadPlugins } from '../../../services/proxy/pipeline/plugins/plugin-loader';

const FLAG = '__gwSymlinkedPluginLoaded';

describe('proxy: plugin loader, where plugin code may come from', () => {
  let root: string;
  let pluginsDir: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'gw-plugin-loader-'));
    pluginsDir = join(root, 'plugins');
    mkdirSync(join(pluginsDir, 'linked'), { recursive: true });
    writeFileSync(join(root, 'outside.js'), `globalThis.${FLAG} = true;\nmodule.exports = {};\n`);
    symlinkSync(join(root, 'outside.js'), join(pluginsDir, 'link.js'));
    // a package folder inside the plugins folder whose "main" leads out of it
    writeFileSync(
      join(pluginsDir, 'linked', 'package.json'),
      JSON.stringify({ name: 'linked', main: '../../outside.js' }),
    );
    const sdk = resolve(__dirname, '../../../plugins/sdk');
    writeFileSync(
      join(pluginsDir, 'good.js'),
      `module.exports = require(${JSON.stringify(sdk)}).definePlugin({ name: 'good', sdk: '^1.0.0', hooks: { pre() {} } });\n`,
    );
  });
  after(() => {
    rmSync(root, { recursive: true, force: true });
    delete (globalThis as Record<string, unknown>)[FLAG];
  });

  const load =
    (path: string, packages: string[] = []) =>
    () =>
      loadPlugins({ pre: [{ name: 'x', path }] }, { dir: pluginsDir, packages });
  const refusedWith = (code: string, message: RegExp) => (err: unknown) =>
    err instanceof PluginError && err.code === code && message.test(err.message);

  it('refuses a symlink inside the plugins folder that points out of it, without running it', () => {
    assert.throws(
      load('link.js'),
      refusedWith('GW_ERR_PLUGIN_NOT_ALLOWED', /plugin path 'link.js' leads outside the plugins folder/),
    );
    assert.throws(
      load('linked'),
      refusedWith('GW_ERR_PLUGIN_NOT_ALLOWED', /plugin path 'linked' leads outside the plugins folder/),
    );
    assert.equal((globalThis as Record<string, unknown>)[FLAG], undefined);
  });

  it('refuses absolute paths and .. before resolving anything', () => {
    assert.throws(load(join(root, 'outside.js')), refusedWith('GW_ERR_PLUGIN_NOT_ALLOWED', /is absolute/));
    assert.throws(load('../outside.js'), refusedWith('GW_ERR_PLUGIN_NOT_ALLOWED', /holds a '\.\.' segment/));
    assert.equal((globalThis as Record<string, unknown>)[FLAG], undefined);
  });

  it('loads a package only when the operator listed it', () => {
    assert.throws(
      load('undici'),
      refusedWith('GW_ERR_PLUGIN_NOT_FOUND', /plugin module 'undici' not found \(looked in .*plugins\)/),
    );
    assert.throws(load('undici', ['undici']), refusedWith('GW_ERR_PLUGIN_INVALID', /undici does not export a plugin/));
  });

  it('loads a file inside the plugins folder', () => {
    const loaded = loadPlugins({ pre: [{ name: 'good', path: 'good.js' }] }, { dir: pluginsDir, packages: [] });
    assert.equal(loaded.pre[0]?.name, 'good');
  });
});
