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
      return {
        open_policy: { enabled: true, rules: store.rules.get(orgId) ?? 'package p' },
        org: { id: orgId },
        revision: store.revision,
      };
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
    cache = new OrgPolicyCache(
      (orgId) => store.fetch(orgId),
      async () => store.revision,
      { warn: () => undefined },
    );
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

  it('when full, forgets the least recently used organisation, not the oldest fetched', async () => {
    const small = new OrgPolicyCache(
      (orgId) => store.fetch(orgId),
      async () => store.revision,
      { warn: () => undefined },
      2,
    );
    await small.check();
    await small.get('a');
    await small.get('b');
    await small.get('a'); // a is now the most recently used
    await small.get('c'); // full: b goes
    await small.get('a');
    assert.equal(fetches('a'), 1, 'a, used recently, was kept');
    await small.get('b');
    assert.equal(fetches('b'), 2, 'b, the least recently used, was forgotten');
  });

  it('compiles once for concurrent misses of one organisation', async () => {
    await cache.check();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new OrgPolicyCache(
      async (orgId) => {
        const answer = await store.fetch(orgId);
        await gate;
        return answer;
      },
      async () => store.revision,
      { warn: () => undefined },
    );
    await slow.check();
    store.rules.set('a', 'package p\ndeny["x"] { true }');
    const pending = Array.from({ length: 5 }, () => slow.get('a'));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const entries = await Promise.all(pending);
    assert.equal(fetches('a'), 1);
    assert.ok(
      entries.every((entry) => entry.program === entries[0].program),
      'one compiled program for all of them',
    );
    assert.deepEqual(entries[0].program?.denials({}), ['x']);
  });

  it('a request after a change does not join a fetch begun before it', async () => {
    let release!: () => void;
    let first = true;
    const slow = new OrgPolicyCache(
      async (orgId) => {
        const answer = await store.fetch(orgId);
        if (first) {
          first = false;
          await new Promise<void>((resolve) => (release = resolve));
        }
        return answer;
      },
      async () => store.revision,
      { warn: () => undefined },
    );
    await slow.check();
    const early = slow.get('a');
    await new Promise((resolve) => setImmediate(resolve));
    slow.changed('a', store.change('a', 'package p\ndeny["new"] { true }'));
    const late = slow.get('a');
    release();
    assert.deepEqual((await early).program?.denials({}), []);
    assert.deepEqual((await late).program?.denials({}), ['new']);
  });

  it('keeps rules that no longer compile as such, for the gate to refuse', async () => {
    store.rules.set('a', 'package p\ndeny["x"] { input.a with input as 1 }');
    const entry = await cache.get('a');
    assert.equal(entry.program, undefined);
    assert.match(entry.compileError!, /'with' keyword/);
  });
});
