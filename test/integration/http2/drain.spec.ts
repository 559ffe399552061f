import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { ClientHttp2Session, IncomingHttpHeaders } from 'node:http2';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPki, type TestPki } from '../../support/certificates';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { connectHttp2, http2Request, type Http2Result } from '../../support/http2-client';
import { removeDir } from '../../support/node';
import { exited, killProgram, startProgram, type StartedProgram } from '../../support/program';
import { startUpstream, type Upstream } from '../../support/upstream';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A node stopping (SIGTERM) with HTTP/2 clients connected, over TLS and cleartext (GW_GATEWAY_H2C). */
describe('HTTP/2 sessions when the node drains', function () {
  this.timeout(60_000);
  let cwd: string;
  let pki: TestPki;
  let upstream: Upstream;
  let program: StartedProgram | undefined;
  const sessions: ClientHttp2Session[] = [];
  const held: ServerResponse[] = [];
  const release = () => {
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
  };

  beforeEach(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'gw-h2-drain-'));
    pki = createTestPki();
    upstream = await startUpstream();
    upstream.respondWith((req, res) => {
      if (req.url.startsWith('/held')) held.push(res);
      else if (req.url.startsWith('/events')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
      } else res.writeHead(200, { 'content-type': 'text/plain' }).end('quick');
    });
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.destroy();
    release();
    await killProgram(program?.child);
    program = undefined;
    await upstream.close();
    removeDir(cwd);
    pki.cleanup();
  });

  it('lets the requests in flight finish, ends event streams, sends GOAWAY, and exits before the timeout', async () => {
    const cert = pki.issue('gateway', { dns: ['localhost'], ips: ['127.0.0.1'] });
    const tlsPort = await freePort();
    program = await startProgram(cwd, {
      GW_GATEWAY_PORT: '0',
      GW_DASHBOARD_PORT: '0',
      GW_LOG_LEVEL: 'warn',
      GW_SECRET: 'drain-secret',
      GW_SHUTDOWN_TIMEOUT: '20',
      GW_GATEWAY_H2C: 'true',
      GW_GATEWAY_TLS_PORT: String(tlsPort),
      GW_GATEWAY_TLS_CERT_FILE: cert.certFile,
      GW_GATEWAY_TLS_KEY_FILE: cert.keyFile,
    });
    const { gatewayUrl, child, output } = program;
    const created = await http(`${gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: { 'x-gw-authorization': 'drain-secret' },
      body: {
        api_id: 'slow',
        name: 'slow',
        use_keyless: true,
        proxy: { listen_path: '/slow/', target_url: upstream.url, strip_listen_path: true },
      },
    });
    assert.equal(created.status, 200, created.text);
    await eventually(async () => assert.equal((await http(`${gatewayUrl}/slow/ping`)).status, 200), 5000);

    const overTls = await connectHttp2(`https://127.0.0.1:${tlsPort}`, { ca: pki.ca.cert });
    const cleartext = await connectHttp2(gatewayUrl!);
    sessions.push(overTls, cleartext);
    const goAways: string[] = [];
    overTls.once('goaway', () => goAways.push('tls'));
    cleartext.once('goaway', () => goAways.push('h2c'));
    const inFlight: Array<Promise<Http2Result>> = [
      http2Request(overTls, { path: '/slow/held/tls' }),
      http2Request(cleartext, { path: '/slow/held/h2c' }),
    ];
    const events = overTls.request({ ':path': '/slow/events' });
    let eventText = '';
    events.on('data', (chunk: Buffer) => (eventText += chunk.toString()));
    const eventsEnded = new Promise<void>((resolve) => events.once('close', () => resolve()));
    await new Promise<IncomingHttpHeaders>((resolve) => events.once('response', resolve));
    await eventually(() => assert.equal(held.length, 2), 5000);

    const stopping = Date.now();
    child.kill('SIGTERM');
    await eventually(() => assert.deepEqual(goAways.sort(), ['h2c', 'tls']), 5000);
    // the event stream says goodbye on its own: its upstream never ends it
    await eventsEnded;
    assert.equal(eventText, 'data: first\n\n');
    release();
    for (const res of await Promise.all(inFlight)) assert.deepEqual([res.status, res.text], [200, 'done']);

    const code = await exited(child);
    assert.equal(code, 0, output());
    assert.ok(Date.now() - stopping < 20_000, 'exited before GW_SHUTDOWN_TIMEOUT');
    assert.doesNotMatch(output(), /still open after|ERROR/);
  });
});
