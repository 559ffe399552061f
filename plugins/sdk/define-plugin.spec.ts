import { strict as assert } from 'node:assert';
import { definePlugin, isPlugin, PluginError } from './index';

describe('plugin SDK: definePlugin', () => {
  it('returns a frozen plugin the gateway recognises', () => {
    const plugin = definePlugin({ name: 'ok', sdk: '^1.0.0', hooks: { pre() {} } });
    assert.ok(isPlugin(plugin));
    assert.ok(Object.isFrozen(plugin));
    assert.equal(isPlugin({ name: 'ok', sdk: '^1.0.0', hooks: { pre() {} } }), false);
  });

  const refused: Array<[string, () => unknown, string]> = [
    [
      'an unknown hook',
      () => definePlugin({ name: 'x', sdk: '^1.0.0', hooks: { before() {} } as never }),
      'GW_ERR_PLUGIN_UNKNOWN_HOOK',
    ],
    [
      'an SDK range this SDK is not in',
      () => definePlugin({ name: 'x', sdk: '^2.0.0', hooks: { pre() {} } }),
      'GW_ERR_PLUGIN_SDK_VERSION',
    ],
    [
      'a range that is not semver',
      () => definePlugin({ name: 'x', sdk: 'latest', hooks: { pre() {} } }),
      'GW_ERR_PLUGIN_INVALID',
    ],
    ['no name', () => definePlugin({ name: '', sdk: '^1.0.0', hooks: { pre() {} } }), 'GW_ERR_PLUGIN_INVALID'],
    ['no hooks', () => definePlugin({ name: 'x', sdk: '^1.0.0', hooks: {} }), 'GW_ERR_PLUGIN_INVALID'],
    [
      'a hook that is not a function',
      () => definePlugin({ name: 'x', sdk: '^1.0.0', hooks: { pre: 'yes' } as never }),
      'GW_ERR_PLUGIN_INVALID',
    ],
  ];
  for (const [what, define, code] of refused) {
    it(`refuses ${what} with ${code}`, () => {
      assert.throws(define, (err: PluginError) => err instanceof PluginError && err.code === code);
    });
  }
});
