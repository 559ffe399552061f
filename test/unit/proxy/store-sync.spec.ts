import { strict as assert } from 'node:assert';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { ApisSnapshotResult } from '../../../contracts/apis/actions';
import { DefinitionRegistry } from '../../../services/proxy/lib/definition-registry';
import { StoreSync } from '../../../services/proxy/lib/store-sync';

const def = (id: string, name = id) =>
  ({ id, api_id: id, name, proxy: { listen_path: `/${id}`, target_url: 'http://u.test' } }) as unknown as ApiDefinition;

/** A store whose snapshots the test answers one by one. */
function fakeStore() {
  const requests: Array<(answer: ApisSnapshotResult) => void> = [];
  let revision = 0;
  return {
    requests,
    setRevision: (r: number) => (revision = r),
    snapshot: () => new Promise<ApisSnapshotResult>((resolve) => requests.push(resolve)),
    currentRevision: async () => revision,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('proxy: StoreSync', () => {
  let store: ReturnType<typeof fakeStore>;
  let registry: DefinitionRegistry;
  let sync: StoreSync;
  const ids = () =>
    registry
      .all()
      .map((d) => d.id)
      .sort();

  beforeEach(() => {
    store = fakeStore();
    registry = new DefinitionRegistry();
    sync = new StoreSync({
      snapshot: store.snapshot,
      currentRevision: store.currentRevision,
      replaceStore: (defs) => registry.replaceStore(defs),
      apply: (change) => registry.apply(change),
      changed: () => undefined,
      logger: { info: () => undefined, warn: () => undefined },
    });
  });

  it('runs one snapshot at a time; calls made during a run share one more run, started after them', async () => {
    const first = sync.sync();
    await settle();
    const second = sync.sync();
    const third = sync.sync();
    assert.equal(second, third);
    assert.equal(store.requests.length, 1, 'no second snapshot while one is in flight');
    store.requests[0]({ revision: 1, apis: [def('a')] });
    await first;
    await settle();
    assert.equal(store.requests.length, 2);
    store.requests[1]({ revision: 2, apis: [def('a'), def('b')] });
    await Promise.all([second, third]);
    assert.deepEqual(ids(), ['a', 'b']);
    assert.equal(sync.revision, 2);
  });

  it('replays the changes that arrived during a snapshot when newer than it, and ignores older ones', async () => {
    const done = sync.sync();
    await settle();
    sync.onChange({ action: 'deleted', id: 'old', api_id: 'old', revision: 5 });
    sync.onChange({ action: 'created', definition: def('c'), revision: 6 });
    store.requests[0]({ revision: 5, apis: [def('old')] });
    await done;
    assert.deepEqual(ids(), ['c', 'old'], 'the deletion at revision 5 is already in the snapshot that still lists it');
    assert.equal(sync.revision, 6);
  });

  it('applies a change that follows on, ignores a stale one, and re-syncs on a gap', async () => {
    const first = sync.sync();
    await settle();
    store.requests[0]({ revision: 3, apis: [def('a')] });
    await first;
    sync.onChange({ action: 'created', definition: def('b'), revision: 4 });
    sync.onChange({ action: 'deleted', id: 'b', api_id: 'b', revision: 3 });
    assert.deepEqual(ids(), ['a', 'b']);
    assert.equal(store.requests.length, 1);
    sync.onChange({ action: 'created', definition: def('d'), revision: 7 });
    assert.deepEqual(ids(), ['a', 'b', 'd'], 'served at once');
    await settle();
    assert.equal(store.requests.length, 2, 'a gap re-syncs');
    store.requests[1]({ revision: 7, apis: [def('a'), def('d')] });
    await settle();
    assert.deepEqual(ids(), ['a', 'd']);
    assert.equal(sync.revision, 7);
  });

  it('re-syncs when an announced or checked revision differs, and not when it matches', async () => {
    const first = sync.sync();
    await settle();
    store.requests[0]({ revision: 2, apis: [] });
    await first;
    sync.onAnnounced(2);
    store.setRevision(2);
    await sync.check();
    assert.equal(store.requests.length, 1);
    store.setRevision(3);
    const checked = sync.check();
    await settle();
    assert.equal(store.requests.length, 2);
    store.requests[1]({ revision: 3, apis: [def('z')] });
    await checked;
    assert.deepEqual(ids(), ['z']);
    sync.onAnnounced(9);
    await settle();
    assert.equal(store.requests.length, 3);
    store.requests[2]({ revision: 9, apis: [] });
  });

  it('keeps a write made through this node when a snapshot taken before it lands', async () => {
    const first = sync.sync();
    await settle();
    const local = sync.applyLocal({ action: 'created', definition: def('mine') });
    store.requests[0]({ revision: 1, apis: [] });
    await first;
    assert.deepEqual(ids(), ['mine']);
    await settle();
    store.requests[1]({ revision: 2, apis: [def('mine')] });
    await local;
    assert.deepEqual(ids(), ['mine']);
  });
});
