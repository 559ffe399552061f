import { strict as assert } from 'node:assert';
import type { OrgsOpenPolicyResult } from '../../../contracts/orgs/actions';
import { OrgPolicyCache } from '../../../services/api/lib/open-policy/policy-cache';

/** A store of rules per organisation, and how often each was fetched. */
function fakeStore() {
  const store = {
    revision: 0,
    rules: new Map<string, string>(),
    fetches: new Map<string, number>(),
    async fetch(orgId: string): Promise<OrgsOpenPolicyResult> {
      store.fetches.set(orgId, (store.fetches.get(orgId) ?? 0) + 1);
      return { open_policy: { enabled: true, rules: store.rules.get(orgId) ?? 'package p' }, org: { id: orgId }, revision: store.revision };
    },
    change(orgId: string, rules: string): number {
      store.rules.set(orgId, rules);
      return ++store.revision;
    },
  };
  return store;
}

describe('compiled policy rules per organisation on a dashboard node (OrgPolicyCache)', () => {
  let store: ReturnType<typeof fakeStore>;
  let cache: OrgPolicyCache;
  const fetches = (orgId: string) => store.fetches.get(orgId) ?? 0;

  beforeEach(() => {
    store = fakeStore();
    cache = new OrgPolicyCache((orgId) => store.fetch(orgId), async () => store.revision, { warn: () => undefined });
  });

  it('compiles once per organisation, and again only for the one a change names', async () => {
    await cache.check();
    await cache.get('a');
    await cache.get('a');
    await cache.get('b');
    assert.equal(fetches('a'), 1);
    cache.changed('a', store.change('a', 'package p\ndeny["x"] { true }'));
    assert.deepEqual((await cache.get('a')).program?.denials({}), ['x']);
    await cache.get('b');
    assert.deepEqual([fetches('a'), fetches('b')], [2, 1]);
  });

  it('drops everything when it sees a gap in the revisions', async () => {
    await cache.check();
    await cache.get('a');
    await cache.get('b');
    store.change('a', 'package p');
    cache.changed('b', store.change('b', 'package p'));
    await cache.get('a');
    assert.equal(fetches('a'), 2, 'the change of a was missed, so a was dropped too');
  });

  it('drops everything when a store node announces another revision', async () => {
    await cache.check();
    await cache.get('a');
    store.change('a', 'package p');
    cache.announced(store.revision);
    await cache.get('a');
    assert.equal(fetches('a'), 2);
  });

  it('does not keep an answer older than a change it has already seen', async () => {
    await cache.check();
    let release!: () => void;
    let first = true;
    const slowStore = new OrgPolicyCache(
      async (orgId) => {
        const answer = await store.fetch(orgId); // the first is read before the change below
        if (first) {
          first = false;
          await new Promise<void>((resolve) => (release = resolve));
        }
        return answer;
      },
      async () => store.revision,
      { warn: () => undefined },
    );
    await slowStore.check();
    const pending = slowStore.get('a');
    await new Promise((resolve) => setImmediate(resolve));
    slowStore.changed('a', store.change('a', 'package p\ndeny["new"] { true }'));
    release();
    assert.deepEqual((await pending).program?.denials({}), [], 'the raced answer serves its own request');
    assert.deepEqual((await slowStore.get('a')).program?.denials({}), ['new'], 'but is not kept');
  });

  it('keeps rules that no longer compile as such, for the gate to refuse', async () => {
    store.rules.set('a', 'package p\ndeny["x"] { input.a with input as 1 }');
    const entry = await cache.get('a');
    assert.equal(entry.program, undefined);
    assert.match(entry.compileError!, /'with' keyword/);
  });
});
