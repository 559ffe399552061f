import { strict as assert } from 'node:assert';
import { DocumentCache } from '../../../services/graphql-engine/lib/document-cache';

describe('graphql-engine: document cache', () => {
  const query = (i: number, size: number) => `query Q${i} { ${'field '.repeat(size / 6)} }`;

  it('keeps the bytes of query text under its budget however many documents arrive', () => {
    const cache = new DocumentCache<number>(64 * 1024);
    for (let i = 0; i < 5_000; i++) cache.set(query(i, 1000), i);
    assert.ok(cache.bytes <= 64 * 1024, `${cache.bytes} bytes held`);
    assert.ok(cache.size > 50, 'and uses its budget');
    for (let i = 4_990; i < 5_000; i++) assert.equal(cache.get(query(i, 1000)), i, 'recent documents hit');
    assert.equal(cache.get(query(0, 1000)), undefined, 'the oldest went');
  });

  it('drops the least recently used, not the oldest inserted', () => {
    const cache = new DocumentCache<string>(30);
    cache.set('aaaaaaaaaa', 'a');
    cache.set('bbbbbbbbbb', 'b');
    cache.set('cccccccccc', 'c');
    assert.equal(cache.get('aaaaaaaaaa'), 'a');
    cache.set('dddddddddd', 'd');
    assert.deepEqual(
      ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc', 'dddddddddd'].map((k) => cache.get(k)),
      ['a', undefined, 'c', 'd'],
    );
  });

  it('does not keep a document larger than the whole budget, and counts bytes, not characters', () => {
    const cache = new DocumentCache<number>(100);
    cache.set('x'.repeat(101), 1);
    assert.equal(cache.size, 0);
    cache.set('é'.repeat(40), 2);
    assert.equal(cache.bytes, 80);
    cache.setBudget(50);
    assert.equal(cache.size, 0);
  });
});
