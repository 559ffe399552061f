import { strict as assert } from 'node:assert';
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import { detectNativeParser } from '../../../services/proxy/pipeline/upstream-client/native-parser';
import type { OriginPool, UpstreamPoolOptions } from '../../../services/proxy/pipeline/upstream-client/origin-pool';
import { UndiciUpstreamPool } from '../../../services/proxy/pipeline/upstream-client/undici-pool';
import type { UpstreamErrorCode } from '../../../services/proxy/pipeline/upstream-client/upstream-error';
import { UpstreamPool } from '../../../services/proxy/pipeline/upstream-client/upstream-pool';
import { eventually } from '../../support/eventually';
import { rawServer } from '../../support/raw-upstream';
import { exchange, type CollectedResponse } from '../../support/upstream-exchange';

/**
 * Responses at the edges of HTTP/1.1, written byte for byte by a raw upstream, through both of the
 * gateway's upstream clients (its own on Node's parser, and undici's Pool it falls back to). This
 * spec loads nothing but the clients, so it runs on every supported Node line.
 */

/** What the client hands over: an answer, or a failure with this code (the gateway answers it 502). */
type Outcome = Answer | { error: UpstreamErrorCode };

interface Answer {
  status: number;
  body: string;
  /** these headers, in this order, among the others */
  headers?: Array<[string, string]>;
  absent?: string[];
  /** the 1xx heard before the answer */
  informational?: number[];
}

interface Case {
  name: string;
  /** the upstream's bytes in answer to the case's request */
  answer: string;
  method?: 'GET' | 'HEAD';
  expect: Outcome;
  /** where undici's Pool differs (and why, in the name of the case) */
  undici?: Outcome;
  /** bytes follow the answer: its connection must be closed, not reused */
  stray?: true;
}

/** `count` numbered header fields, as name/value pairs */
const manyFields = (count: number, prefix: string): Array<[string, string]> =>
  Array.from({ length: count }, (_, i) => [`${prefix}-${i}`, String(i)]);
/** the same fields as header lines */
const fields = (count: number, prefix: string) =>
  manyFields(count, prefix)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
const INVALID: Outcome = { error: 'UPSTREAM_INVALID_RESPONSE' };

const CASES: Case[] = [
  {
    name: 'a plain answer',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
    expect: { status: 200, body: 'ok' },
  },
  {
    name: 'Content-Length twice, the same',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 2\r\n\r\nok',
    expect: INVALID,
  },
  {
    name: 'Content-Length twice, conflicting',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 5\r\n\r\nokxyz',
    expect: INVALID,
  },
  {
    name: 'Content-Length as a list',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 2, 2\r\n\r\nok',
    expect: INVALID,
  },
  {
    name: 'Content-Length with a sign',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: +2\r\n\r\nok',
    expect: INVALID,
  },
  {
    name: 'Content-Length with Transfer-Encoding chunked',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 20\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    expect: INVALID,
  },
  {
    name: 'Transfer-Encoding chunked with Content-Length after it',
    answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 20\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    expect: INVALID,
  },
  { name: 'bare LF line endings', answer: 'HTTP/1.1 200 OK\ncontent-length: 2\n\nok', expect: INVALID },
  {
    name: 'a bare LF ending one header line',
    answer: 'HTTP/1.1 200 OK\r\nx-a: 1\ncontent-length: 2\r\n\r\nok',
    expect: INVALID,
  },
  {
    name: 'an obs-folded header value',
    answer: 'HTTP/1.1 200 OK\r\nx-folded: one\r\n two\r\ncontent-length: 2\r\n\r\nok',
    expect: INVALID,
  },
  {
    name: "a space before a header's colon",
    answer: 'HTTP/1.1 200 OK\r\ncontent-length : 2\r\n\r\nok',
    expect: INVALID,
  },
  {
    name: 'a NUL in a header value',
    answer: 'HTTP/1.1 200 OK\r\nx-a: a\u0000b\r\ncontent-length: 2\r\n\r\nok',
    expect: INVALID,
  },
  {
    name: 'a chunk size that is not hexadecimal',
    answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n',
    expect: INVALID,
  },
  {
    name: 'Transfer-Encoding gzip (not chunked): a coding the gateway does not decode',
    answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\nnot really gzip',
    expect: INVALID,
  },
  {
    name: 'Transfer-Encoding chunked, gzip (chunked not last)',
    answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked, gzip\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    expect: INVALID,
  },
  {
    name: 'Transfer-Encoding gzip, chunked',
    answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    expect: INVALID,
  },
  {
    name: 'the answer to a HEAD naming Transfer-Encoding gzip: no body to decode',
    method: 'HEAD',
    answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\n',
    expect: { status: 200, body: '' },
  },
  {
    name: '304 naming Transfer-Encoding gzip: no body to decode',
    answer: 'HTTP/1.1 304 Not Modified\r\ntransfer-encoding: gzip\r\n\r\n',
    expect: { status: 304, body: '' },
  },
  {
    name: 'Transfer-Encoding Chunked (any case)',
    answer: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    expect: { status: 200, body: 'ok' },
  },
  {
    name: 'trailers after a chunked body',
    answer:
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ntrailer: x-sum\r\n\r\n' + '2\r\nok\r\n0\r\nx-sum: 42\r\n\r\n',
    expect: { status: 200, body: 'ok', absent: ['x-sum'] },
  },
  {
    name: 'more trailers than the parser hands over at once (40)',
    answer: 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n' + `2\r\nok\r\n0\r\n${fields(40, 'x-trailer')}\r\n`,
    expect: { status: 200, body: 'ok', absent: ['x-trailer-0', 'x-trailer-39'] },
  },
  {
    name: 'more headers than the parser hands over at once (70)',
    answer: `HTTP/1.1 200 OK\r\n${fields(70, 'x-field')}content-length: 2\r\n\r\nok`,
    expect: { status: 200, body: 'ok', headers: manyFields(70, 'x-field') },
  },
  {
    name: '100 Continue nobody asked for, then the answer (undici fails it: "bad response")',
    answer: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
    expect: { status: 200, body: 'ok', informational: [100] },
    undici: INVALID,
  },
  {
    name: '103 Early Hints, then the answer',
    answer:
      'HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n' +
      'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
    expect: { status: 200, body: 'ok', informational: [103], absent: ['link'] },
  },
  {
    name: 'a 1xx and then nothing: never taken for the answer',
    answer: 'HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n',
    expect: { error: 'UPSTREAM_HEADERS_TIMEOUT' },
  },
  {
    name: '101 Switching Protocols nobody asked for',
    answer: 'HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\nraw bytes',
    expect: INVALID,
  },
  {
    name: '101 without Upgrade headers',
    answer: 'HTTP/1.1 101 Switching Protocols\r\n\r\n',
    expect: INVALID,
  },
  {
    name: '204 with bytes after its head',
    answer: 'HTTP/1.1 204 No Content\r\n\r\nstray bytes',
    expect: { status: 204, body: '' },
    stray: true,
  },
  {
    name: '204 stating a length, with that body',
    answer: 'HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\nstray',
    expect: { status: 204, body: '' },
    stray: true,
  },
  {
    name: '304 stating the length of what it stands for',
    answer: 'HTTP/1.1 304 Not Modified\r\ncontent-length: 1234\r\n\r\n',
    expect: { status: 304, body: '', headers: [['content-length', '1234']] },
  },
  {
    name: '304 with bytes after its head',
    answer: 'HTTP/1.1 304 Not Modified\r\netag: "1"\r\n\r\nstray bytes',
    expect: { status: 304, body: '' },
    stray: true,
  },
  {
    name: 'the answer to a HEAD, with a body after all',
    method: 'HEAD',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nstray',
    expect: { status: 200, body: '', headers: [['content-length', '5']] },
    stray: true,
  },
  {
    name: 'more body than Content-Length',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokstray',
    expect: { status: 200, body: 'ok' },
    stray: true,
  },
  {
    name: 'less body than Content-Length, then the close',
    answer: 'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nok',
    expect: { error: 'UPSTREAM_CLOSED' },
  },
  { name: 'a status line that is not HTTP', answer: 'ICY 200 OK\r\n\r\nok', expect: INVALID },
];

/** The answer to every request after a case's: it must come whole, with nothing of the case's in it. */
const NEXT = 'HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nnext';
/** cases the upstream ends by closing (a body cut short) */
const CLOSES = new Set(['less body than Content-Length, then the close']);

interface ClientUnderTest {
  name: string;
  undici: boolean;
  create(origin: string, options: UpstreamPoolOptions): OriginPool;
}

const CLIENTS: ClientUnderTest[] = [
  {
    name: "the gateway's own client (Node's parser)",
    undici: false,
    create: (origin, options) => new UpstreamPool(origin, options),
  },
  {
    name: "undici's Pool (the fallback)",
    undici: true,
    create: (origin, options) => new UndiciUpstreamPool(origin, options),
  },
];

describe('proxy: upstream response corpus', () => {
  it(`finds Node's own HTTP parser usable on this Node line (${process.version})`, () => {
    const detection = detectNativeParser();
    assert.ok('parser' in detection, 'unusable' in detection ? detection.unusable : '');
  });

  for (const client of CLIENTS) {
    describe(client.name, () => {
      const closers: Array<() => Promise<void> | void> = [];
      afterEach(async () => {
        for (const close of closers.splice(0)) await close();
      });

      for (const testCase of CASES) {
        const expected = (client.undici && testCase.undici) || testCase.expect;
        const outcome = 'error' in expected ? `fails with ${expected.error}` : `answers ${expected.status}`;
        it(`${testCase.name}: ${outcome}, and the next request gets a clean answer`, async () => {
          const raw = await rawServer((request, socket) => {
            if (!request.includes(' /case ')) return void socket.write(NEXT);
            if (CLOSES.has(testCase.name)) socket.end(testCase.answer, 'latin1');
            else socket.write(testCase.answer, 'latin1');
          });
          closers.push(raw.close);
          const options = { connect: buildConnector({}), maxConnections: 1, keepAliveMaxMs: 30_000 };
          const pool = client.create(`http://127.0.0.1:${raw.port}`, options);
          closers.push(() => pool.destroy());
          const timeoutMs = 'error' in expected && expected.error === 'UPSTREAM_HEADERS_TIMEOUT' ? 300 : 5000;
          const answer = exchange(pool, { method: testCase.method ?? 'GET', path: '/case', timeoutMs });
          if ('error' in expected) {
            await assert.rejects(answer, (err: Error & { code?: string }) => {
              assert.equal(err.code, expected.error, err.message);
              return true;
            });
            await eventually(() => assert.ok(closed(raw.connections[0]), 'the failed connection was closed'));
          } else assertAnswer(await answer, expected);
          const next = await exchange(pool, { path: '/next' });
          assert.deepEqual([next.statusCode, next.body], [200, 'next']);
          assert.deepEqual(next.rawHeaders, ['content-length', '4'], 'nothing of the answer before');
          await eventually(() => assert.equal(pool.busy, false));
          if (!('error' in expected) && !testCase.stray) return;
          await eventually(() => assert.ok(closed(raw.connections[0]), 'the connection was closed'));
          assert.equal(raw.connections.length, 2, 'the next request had a new connection');
        });
      }
    });
  }
});

function assertAnswer(response: CollectedResponse, expected: Answer): void {
  assert.equal(response.statusCode, expected.status);
  assert.equal(response.body, expected.body);
  assert.deepEqual(response.informational, expected.informational ?? []);
  const names = response.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
  for (const name of expected.absent ?? []) assert.ok(!names.includes(name), `no ${name} header`);
  if (!expected.headers) return;
  const wanted = new Set(expected.headers.map(([name]) => name));
  const seen: Array<[string, string]> = [];
  for (let i = 0; i < response.rawHeaders.length; i += 2) {
    const name = response.rawHeaders[i].toLowerCase();
    if (wanted.has(name)) seen.push([name, response.rawHeaders[i + 1]]);
  }
  assert.deepEqual(seen, expected.headers, 'the headers, in the order sent');
}

function closed(socket: Socket | undefined): boolean {
  return socket !== undefined && (socket.destroyed || socket.readableEnded);
}
