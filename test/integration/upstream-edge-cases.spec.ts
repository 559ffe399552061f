import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { rawServer } from '../support/raw-upstream';

/** What a client of the gateway sees: status, raw headers, body and trailers (node:http shows them all). */
interface Seen {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  trailers: Record<string, string | undefined>;
}

function call(url: string, method = 'GET'): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, trailers: res.trailers });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const PROXY_FAILED = JSON.stringify({ error: 'There was a problem proxying the request' });
const fields = (count: number) => Array.from({ length: count }, (_, i) => `x-field-${i}: ${i}\r\n`).join('');

/** The upstream's bytes by request path; every other path gets NEXT. */
const ANSWERS: Record<string, string> = {
  '/trailers':
    'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ntrailer: x-sum\r\n\r\n' + '2\r\nok\r\n0\r\nx-sum: 42\r\n\r\n',
  '/length-twice': 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 5\r\n\r\nokxyz',
  '/length-and-chunked':
    'HTTP/1.1 200 OK\r\ncontent-length: 20\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
  '/gzip-coding': 'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\nnot really gzip',
  '/bare-lf': 'HTTP/1.1 200 OK\ncontent-length: 2\n\nok',
  '/folded': 'HTTP/1.1 200 OK\r\nx-folded: one\r\n two\r\ncontent-length: 2\r\n\r\nok',
  '/upgrade': 'HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\nraw bytes',
  '/early-hints':
    'HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n' +
    'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
  '/continue': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
  '/many-headers': `HTTP/1.1 200 OK\r\n${fields(70)}content-length: 2\r\n\r\nok`,
  '/no-content': 'HTTP/1.1 204 No Content\r\n\r\nstray bytes',
  '/head': 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nstray',
};
const NEXT = 'HTTP/1.1 200 OK\r\ncontent-length: 4\r\nx-own: next\r\n\r\nnext';

interface Case {
  path: string;
  method?: string;
  status: number;
  body: string;
  /** headers the client must see, and ones it must not */
  headers?: Record<string, string>;
  absent?: string[];
}

const CASES: Case[] = [
  { path: '/trailers', status: 200, body: 'ok', absent: ['trailer', 'x-sum'] },
  { path: '/length-twice', status: 502, body: PROXY_FAILED },
  { path: '/length-and-chunked', status: 502, body: PROXY_FAILED },
  { path: '/gzip-coding', status: 502, body: PROXY_FAILED },
  { path: '/bare-lf', status: 502, body: PROXY_FAILED },
  { path: '/folded', status: 502, body: PROXY_FAILED },
  { path: '/upgrade', status: 502, body: PROXY_FAILED },
  { path: '/early-hints', status: 200, body: 'ok', absent: ['link'] },
  { path: '/continue', status: 200, body: 'ok' },
  {
    path: '/many-headers',
    status: 200,
    body: 'ok',
    headers: { 'x-field-0': '0', 'x-field-31': '31', 'x-field-32': '32', 'x-field-69': '69' },
  },
  { path: '/no-content', status: 204, body: '' },
  { path: '/head', method: 'HEAD', status: 200, body: '', headers: { 'content-length': '5' } },
];

describe('proxy: edge-case upstream responses, as a client of the gateway sees them', function () {
  this.timeout(60_000);
  let gw: GatewayFixture;
  let raw: Awaited<ReturnType<typeof rawServer>>;

  before(async () => {
    gw = await startGatewayFixture();
    raw = await rawServer((head, socket) => {
      const path = head.split(' ')[1] ?? '';
      socket.write(ANSWERS[path] ?? NEXT, 'latin1');
    });
    await gw.addApi(apiDefinition('edges', '/edges', `http://127.0.0.1:${raw.port}`));
  });
  after(async () => {
    await raw?.close();
    await gw?.stop();
  });

  for (const testCase of CASES) {
    const title = `${testCase.method ?? 'GET'} ${testCase.path}: ${testCase.status}`;
    it(`${title}, and the next request through the same pool gets its own answer`, async () => {
      const seen = await call(`${gw.node.gatewayUrl}/edges${testCase.path}`, testCase.method);
      assert.equal(seen.status, testCase.status);
      assert.equal(seen.body, testCase.body);
      assert.deepEqual(seen.trailers, {});
      for (const [name, value] of Object.entries(testCase.headers ?? {})) {
        assert.equal(seen.headers[name], value, name);
      }
      for (const name of testCase.absent ?? []) assert.equal(seen.headers[name], undefined, `no ${name}`);
      const next = await call(`${gw.node.gatewayUrl}/edges/next`);
      assert.deepEqual([next.status, next.body, next.headers['x-own']], [200, 'next', 'next']);
      for (const name of ['trailer', 'x-sum', 'link', 'x-field-0']) {
        assert.equal(next.headers[name], undefined, `no ${name} on the next answer`);
      }
    });
  }
});
