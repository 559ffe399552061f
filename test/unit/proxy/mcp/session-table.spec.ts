import { strict as assert } from 'node:assert';
import { McpSessionTable, type McpSession } from '../../../../services/proxy/pipeline/mcp/session-table';

describe('MCP session table (services/proxy/pipeline/mcp/session-table)', () => {
  let clock = 0;
  const now = () => clock;
  const tables: McpSessionTable[] = [];
  const tableOf = (bounds: ConstructorParameters<typeof McpSessionTable>[0], onIdle?: (s: McpSession) => void) => {
    const table = new McpSessionTable(bounds, onIdle, now);
    tables.push(table);
    return table;
  };
  const open = (table: McpSessionTable, apiId: string, key: string | undefined, sessionId: string): boolean => {
    const place = table.reserve(apiId, key);
    place?.confirm(sessionId, 'http://upstream/mcp');
    return place !== undefined;
  };
  beforeEach(() => (clock = 0));
  after(() => tables.forEach((table) => table.stop()));

  it('bounds the sessions per key and API, counting an initialize in flight, and frees a place on its end', () => {
    const table = tableOf({ maxPerKey: 2, idleMs: 0 });
    assert.ok(open(table, 'a', 'k1', 's1'));
    const inFlight = table.reserve('a', 'k1');
    assert.ok(inFlight);
    assert.equal(table.reserve('a', 'k1'), undefined, 'the initialize in flight holds a place');
    assert.ok(open(table, 'a', 'k2', 's2'), 'another key');
    assert.ok(open(table, 'b', 'k1', 's3'), 'the same key on another API');
    inFlight.release();
    assert.ok(open(table, 'a', 'k1', 's4'), 'a released place is free');
    assert.equal(table.reserve('a', 'k1'), undefined);
    table.end('a', 's1');
    assert.ok(open(table, 'a', 'k1', 's5'));
    assert.ok(open(table, 'open', undefined, 'x1') && open(table, 'open', undefined, 'x2'));
    assert.ok(open(table, 'open', undefined, 'x3'), 'keyless sessions are not bounded per key');
  });

  it('forgets the sessions idle past the timeout, tells of each, and answers their ids as forgotten', () => {
    const idle: string[] = [];
    const table = tableOf({ maxPerKey: 1, idleMs: 1000 }, (session) => idle.push(session.sessionId));
    open(table, 'a', 'k1', 'old');
    clock = 600;
    open(table, 'a', 'k2', 'used');
    clock = 900;
    assert.equal(table.use('a', 'old'), 'known');
    clock = 1500;
    table.sweep();
    assert.deepEqual(idle, [], 'both were used within the timeout');
    clock = 1650;
    assert.equal(table.use('a', 'old'), 'known');
    assert.deepEqual(idle, ['used']);
    assert.equal(table.use('a', 'used'), 'forgotten');
    assert.equal(table.use('a', 'never'), 'unknown');
    assert.ok(open(table, 'a', 'k2', 'new'), 'the idle session freed its place');
  });

  it('drops the sessions of a changed or no longer served API and keeps an unchanged one', () => {
    const table = tableOf({ maxPerKey: 1, idleMs: 0 });
    table.compiled('a', 'v1');
    table.compiled('b', 'v1');
    open(table, 'a', 'k', 'sa');
    open(table, 'b', 'k', 'sb');
    table.compiled('a', 'v1');
    assert.equal(table.use('a', 'sa'), 'known', 'recompiled as it was');
    table.compiled('a', 'v2');
    assert.equal(table.use('a', 'sa'), 'unknown');
    assert.ok(open(table, 'a', 'k', 'sa2'), 'its place was freed');
    table.retain(new Set(['a']));
    assert.equal(table.use('b', 'sb'), 'unknown');
    assert.equal(table.use('a', 'sa2'), 'known');
  });

  it('remembers at most maxSessions sessions, pushing out the least recently used', () => {
    const table = tableOf({ maxPerKey: 0, idleMs: 0, maxSessions: 2 });
    open(table, 'a', 'k', 's1');
    open(table, 'a', 'k', 's2');
    table.use('a', 's1');
    open(table, 'a', 'k', 's3');
    assert.equal(table.size, 2);
    assert.equal(table.use('a', 's2'), 'forgotten');
    assert.equal(table.use('a', 's1'), 'known');
  });
});
