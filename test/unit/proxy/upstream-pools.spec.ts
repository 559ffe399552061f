import { strict as assert } from 'node:assert';
import { detectNativeParser } from '../../../services/proxy/pipeline/upstream-client/native-parser';
import { UndiciUpstreamPool } from '../../../services/proxy/pipeline/upstream-client/undici-pool';
import { Http2Pool } from '../../../services/proxy/pipeline/upstream-client/http2-pool';
import { UpstreamPool } from '../../../services/proxy/pipeline/upstream-client/upstream-pool';
import { UpstreamPools } from '../../../services/proxy/pipeline/upstream-pools';
import { eventually } from '../../support/eventually';
import { startUpstream, type Upstream } from '../../support/upstream';
import { exchange } from '../../support/upstream-exchange';

describe('proxy: upstream pools', () => {
  const clock = { now: 1_700_000_000_000 };
  let pools: UpstreamPools;
  let upstream: Upstream | undefined;

  beforeEach(() => {
    pools = new UpstreamPools({ idleMs: 1000, maxPools: 100_000, now: () => clock.now });
  });
  afterEach(async () => {
    await pools.close();
    await upstream?.close();
    upstream = undefined;
  });

  it('closes and forgets the pools of 10,000 origins once they have been idle', () => {
    for (let i = 0; i < 10_000; i++) pools.get(`http://127.0.${i >> 8}.${i & 255}:8080`);
    assert.equal(pools.size, 10_000);
    clock.now += 500;
    pools.get('http://127.0.0.1:8080');
    pools.sweep();
    assert.equal(pools.size, 10_000, 'nothing is idle for idleMs yet');
    clock.now += 600;
    pools.sweep();
    assert.equal(pools.size, 1, 'only the origin used 600 ms ago is kept');
    clock.now += 1000;
    pools.sweep();
    assert.equal(pools.size, 0);
  });

  it('holds at most maxPools, closing the least recently used first', () => {
    const capped = new UpstreamPools({ idleMs: 60_000, maxPools: 100, now: () => clock.now });
    try {
      const first = capped.get('http://127.0.0.1:1');
      for (let i = 0; i < 10_000; i++) {
        clock.now += 10;
        capped.get(`http://127.1.${i >> 8}.${i & 255}:8080`);
        if (i % 50 === 0) capped.get('http://127.0.0.1:1');
      }
      assert.equal(capped.size, 100);
      assert.equal(capped.get('http://127.0.0.1:1'), first, 'the pool in regular use stayed');
    } finally {
      void capped.close();
    }
  });

  it('evicts by last use whether a pool was used again right away or after another one', () => {
    const capped = new UpstreamPools({ idleMs: 60_000, maxPools: 2, now: () => clock.now });
    try {
      const a = capped.get('http://127.0.0.1:1');
      assert.equal(capped.get('http://127.0.0.1:1'), a, 'used twice in a row: the same pool');
      const b = capped.get('http://127.0.0.1:2');
      assert.equal(capped.get('http://127.0.0.1:1'), a);
      capped.get('http://127.0.0.1:3');
      assert.equal(capped.size, 2);
      assert.equal(capped.get('http://127.0.0.1:1'), a, 'the pool used last before the third one stayed');
      assert.notEqual(
        capped.get('http://127.0.0.1:2'),
        b,
        'the least recently used pool was closed and is opened again',
      );
    } finally {
      void capped.close();
    }
  });

  it('never closes a pool with a request in flight, and the request completes', async () => {
    upstream = await startUpstream();
    let answer: (() => void) | undefined;
    upstream.respondWith((_req, res) => {
      answer = () => res.end('late answer');
    });
    const origin = `http://127.0.0.1:${upstream.port}`;
    const pending = exchange(pools.get(origin), { path: '/slow' });
    await eventually(() => assert.ok(answer, 'the upstream got the request'));
    clock.now += 10_000;
    pools.sweep();
    assert.equal(pools.size, 1, 'the pool in use stays');
    answer!();
    const response = await pending;
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, 'late answer');
    clock.now += 10_000;
    pools.sweep();
    assert.equal(pools.size, 0, 'once the request is done, the idle pool goes');
    assert.notEqual(pools.get(origin), undefined, 'and a later request gets a new pool');
  });

  const choices = [
    {
      when: "Node's own parser is usable",
      nativeParser: detectNativeParser(),
      kind: UpstreamPool,
      warnings: [] as string[],
    },
    {
      when: "Node's own parser is not usable",
      nativeParser: { unusable: '_http_common.HTTPParser is missing' },
      kind: UndiciUpstreamPool,
      warnings: [
        "upstream HTTP/1.1 goes through undici's Pool: Node's own HTTP parser is not usable " +
          '(_http_common.HTTPParser is missing)',
      ],
    },
  ];
  for (const choice of choices) {
    it(`proxies through ${choice.kind.name} when ${choice.when}, saying so once`, async () => {
      upstream = await startUpstream();
      upstream.respondWith((req, res) => res.end(`answered ${req.url}`));
      const warnings: string[] = [];
      const warn = (message: string) => warnings.push(message);
      const chosen = new UpstreamPools({ nativeParser: choice.nativeParser, warn });
      try {
        for (const origin of [`http://127.0.0.1:${upstream.port}`, `http://localhost:${upstream.port}`]) {
          const pool = chosen.get(origin);
          assert.ok(pool instanceof choice.kind, `${origin}: ${pool.constructor.name}`);
          assert.equal((await exchange(pool, { path: '/a' })).body, 'answered /a');
        }
        assert.deepEqual(warnings, choice.warnings);
      } finally {
        await chosen.close();
      }
    });
  }
  it('gives h2c:// origins, and https:// ones asked for HTTP/2, pools of their own on HTTP/2', () => {
    const h2c = pools.get('h2c://127.0.0.1:50051');
    assert.ok(h2c instanceof Http2Pool);
    const h1 = pools.get('https://127.0.0.1:8443');
    const h2 = pools.get('https://127.0.0.1:8443', undefined, true);
    assert.ok(!(h1 instanceof Http2Pool));
    assert.ok(h2 instanceof Http2Pool);
    assert.equal(pools.get('https://127.0.0.1:8443', undefined, true), h2);
    assert.ok(!(pools.get('http://127.0.0.1:8080', undefined, true) instanceof Http2Pool), 'http:// stays HTTP/1.1');
    assert.equal(pools.size, 4);
  });
});
