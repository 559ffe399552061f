import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { trackConnections } from '../../../lib/http/drain';
import { listen } from '../../../lib/http/listen';
import { createTestPki, type TestPki } from '../../support/certificates';

describe('draining a server (lib/http/drain)', () => {
  let pki: TestPki;
  let server: Server;

  before(() => {
    pki = createTestPki();
  });
  after(() => pki.cleanup());
  afterEach(() => server?.closeAllConnections());

  /**
   * A TLS client whose TCP connection was accepted before the drain began and whose handshake
   * ends after it: the case where the listener is closed but the connection is not yet HTTP.
   */
  async function handshakeDuringDrain(name: string) {
    const issued = pki.issue(name, { dns: ['localhost'] });
    server = createServer({ cert: issued.cert, key: issued.key }, (_req, res) => res.end('whole'));
    const drainable = trackConnections(server);
    const port = await listen(server, 0, '127.0.0.1');
    const accepted = once(server, 'connection');
    const tcp = connectTcp(port, '127.0.0.1');
    await accepted;

    const drained = drainable.drain(5000);
    let handshook = false;
    let drainedFirst = false;
    void drained.then(() => (drainedFirst = !handshook));
    const secure = connectTls({ socket: tcp, ca: pki.ca.cert, servername: 'localhost' });
    const closed = once(secure, 'close');
    await once(secure, 'secureConnect');
    handshook = true;
    return { secure, drained, closed, drainedBeforeHandshake: () => drainedFirst };
  }

  it('waits for a TLS handshake that ends after the listener closed, answers its request, then closes it', async () => {
    const { secure, drained, closed, drainedBeforeHandshake } = await handshakeDuringDrain('drained');
    let answer = '';
    secure.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    secure.write('GET / HTTP/1.1\r\nHost: drained\r\n\r\n');

    assert.equal(await drained, true, 'every connection closed on its own, before the timeout');
    assert.equal(drainedBeforeHandshake(), false, 'the drain waited for the connection in its handshake');
    await closed;
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(answer, /\r\nConnection: close\r\n/i);
    assert.match(answer, /whole$/);
  });

  it('closes, after the grace, a TLS connection that ends its handshake after the listener and sends nothing', async () => {
    const { secure, drained, closed, drainedBeforeHandshake } = await handshakeDuringDrain('idle');
    secure.resume();
    assert.equal(await drained, true, 'the idle connection was closed before the timeout');
    assert.equal(drainedBeforeHandshake(), false, 'the drain waited for the connection in its handshake');
    await closed;
  });
});
