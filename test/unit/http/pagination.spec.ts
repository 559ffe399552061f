import { strict as assert } from 'node:assert';
import { pageCount, pageWindow, parsePageParam } from '../../../lib/pagination';

describe('pagination', () => {
  const windows: Array<[number, { limit?: number; offset: number }]> = [
    [1, { limit: 10, offset: 0 }],
    [2, { limit: 10, offset: 10 }],
    [0, { offset: 0 }],
    [-3, { offset: 0 }],
  ];
  for (const [page, expected] of windows) {
    it(`p=${page} reads ${JSON.stringify(expected)}`, () => assert.deepEqual(pageWindow(page, 10), expected));
  }

  it('counts the pages a list fills', () => {
    assert.equal(pageCount(0, 10), 0);
    assert.equal(pageCount(10, 10), 1);
    assert.equal(pageCount(11, 10), 2);
  });

  it('reads p: absent is page 1, integers as numbers, anything else is malformed', () => {
    assert.equal(parsePageParam(undefined), 1);
    assert.equal(parsePageParam(''), 1);
    assert.equal(parsePageParam('3'), 3);
    assert.equal(parsePageParam('-1'), -1);
    assert.equal(parsePageParam('1.5'), null);
    assert.equal(parsePageParam('two'), null);
    assert.equal(parsePageParam(['1', '2']), null);
  });
});
