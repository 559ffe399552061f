import { strict as assert } from 'node:assert';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApisChangedEvent } from '../../../contracts/apis/events';
import { DefinitionRegistry } from '../../../services/proxy/lib/definition-registry';
import { StoreSync } from '../../../services/proxy/lib/store-sync';

describe('proxy: apis.changed from the bus', () => {
  const definition = {
    id: 'd1',
    api_id: 'a1',
    name: 'a1',
    org_id: '',
    active: true,
    proxy: { listen_path: '/a1', target_url: 'http://up.test' },
  } as ApiDefinition;

  it('ignores a change of the wrong shape instead of throwing, and applies the next good one', () => {
    const registry = new DefinitionRegistry();
    for (const bad of [
      null,
      'x',
      42,
      {},
      { action: 'created' },
      { action: 'updated', definition: null },
      { action: 'created', definition: { api_id: 'no-id' } },
      { action: 'deleted' },
      { action: 'renamed', id: 'd1' },
    ]) {
      assert.equal(registry.apply(bad as unknown as ApisChangedEvent), false, JSON.stringify(bad));
    }
    assert.deepEqual(registry.all(), []);
    assert.equal(registry.apply({ action: 'created', definition }), true);
    assert.deepEqual(
      registry.all().map((d) => d.api_id),
      ['a1'],
    );
    assert.equal(registry.apply({ action: 'deleted', id: 'd1', api_id: 'a1' }), true);
    assert.deepEqual(registry.all(), []);
  });

  it('a change event that is not an object reaches neither the sync nor the registry', () => {
    const registry = new DefinitionRegistry();
    let applied = 0;
    const sync = new StoreSync({
      snapshot: async () => ({ definitions: [], revision: 0 }) as never,
      currentRevision: async () => 0,
      replaceStore: (defs) => registry.replaceStore(defs),
      apply: (change) => (applied++, registry.apply(change)),
      changed: () => undefined,
      logger: { info: () => undefined, warn: () => undefined },
    });
    for (const bad of [null, undefined, 'x', 7]) sync.onChange(bad as unknown as ApisChangedEvent);
    assert.equal(applied, 0);
  });
});
