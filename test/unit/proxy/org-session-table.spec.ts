import { strict as assert } from 'node:assert';
import type { OrgSessionRecord, OrgSessionsSnapshotResult } from '../../../contracts/keys/org-sessions';
import { OrgSessionTable } from '../../../services/proxy/lib/org-session-table';

const record = (orgId: string, rate = 1): OrgSessionRecord => ({
  org_id: orgId,
  session: { rate, per: 1 },
  quota_epoch: 0,
});

/** A store whose snapshots the test answers one by one. */
function fakeStore() {
  const requests: Array<(answer: OrgSessionsSnapshotResult) => void> = [];
  let revision = 0;
  return {
    requests,
    setRevision: (r: number) => (revision = r),
    snapshot: () => new Promise<OrgSessionsSnapshotResult>((resolve) => requests.push(resolve)),
    currentRevision: async () => revision,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('proxy: OrgSessionTable', () => {
  let store: ReturnType<typeof fakeStore>;
  let table: OrgSessionTable;
  const quiet = { info: () => undefined, warn: () => undefined };

  beforeEach(async () => {
    store = fakeStore();
    table = new OrgSessionTable({ snapshot: store.snapshot, currentRevision: store.currentRevision, logger: quiet });
    const loaded = table.load();
    store.requests.shift()!({ records: [record('acme')], revision: 3 });
    await loaded;
  });

  it('holds the snapshot and applies the change that follows on, without asking the store', () => {
    assert.equal(table.get('acme')?.session.rate, 1);
    table.onChange({ org_id: 'beta', record: record('beta'), revision: 4 });
    table.onChange({ org_id: 'acme', record: null, revision: 5 });
    assert.equal(table.get('acme'), undefined);
    assert.ok(table.get('beta'));
    assert.equal(table.revision, 5);
    assert.equal(store.requests.length, 0);
  });

  it('ignores a change older than what it holds', () => {
    table.onChange({ org_id: 'acme', record: null, revision: 3 });
    assert.ok(table.get('acme'));
  });

  it('applies a change after a gap at once, then loads the snapshot again, replaying what arrived meanwhile', async () => {
    table.onChange({ org_id: 'acme', record: record('acme', 9), revision: 6 });
    assert.equal(table.get('acme')?.session.rate, 9, 'enforced before the snapshot answers');
    assert.equal(store.requests.length, 1);
    table.onChange({ org_id: 'gamma', record: record('gamma'), revision: 8 });
    store.requests.shift()!({ records: [record('acme', 9), record('beta')], revision: 7 });
    await settle();
    assert.deepEqual(
      ['acme', 'beta', 'gamma'].map((id) => table.get(id) !== undefined),
      [true, true, true],
    );
    assert.equal(table.revision, 8);
  });

  it('loads again when an announced or checked revision differs', async () => {
    table.onAnnounced(3);
    assert.equal(store.requests.length, 0);
    table.onAnnounced(5);
    assert.equal(store.requests.length, 1);
    store.requests.shift()!({ records: [], revision: 5 });
    await settle();
    assert.equal(table.get('acme'), undefined);
    store.setRevision(5);
    await table.check();
    assert.equal(store.requests.length, 0);
  });
});
