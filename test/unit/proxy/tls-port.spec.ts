import { strict as assert } from 'node:assert';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect as tlsConnect } from 'node:tls';
import { close, listen } from '../../../lib/http/listen';
import { createTlsPort } from '../../../services/proxy/lib/tls-port';
import type { Http2Limits } from '../../../services/proxy/lib/http2-port';
import { createTestPki, type TestPki } from '../../support/certificates';
import { http2Once } from '../../support/http2-client';

const LIMITS: Http2Limits = {
  http2MaxConcurrentStreams: 100,
  http2IdleTimeout: 65,
  http2MaxHeaderListSize: 16384,
  http2MaxSessionMemory: 10,
  http2MaxInvalidFrames: 1000,
  http2MaxRejectedStreams: 100,
};

/** Which protocols the HTTPS port offers in ALPN, with GW_GATEWAY_HTTP2 on and off. */
describe('the HTTPS port and GW_GATEWAY_HTTP2', () => {
  let pki: TestPki;
  let credentials: { cert: string; key: string };
  const answer = (req: IncomingMessage, res: ServerResponse) => res.end(`HTTP/${req.httpVersion} ${req.headers.host}`);
  const noUpgrades = () => undefined;

  before(() => {
    pki = createTestPki();
    const issued = pki.issue('gateway', { dns: ['localhost'], ips: ['127.0.0.1'] });
    credentials = { cert: issued.cert, key: issued.key };
  });
  after(() => pki.cleanup());

  /** the protocol the port picks for a client that offers h2 and http/1.1 */
  const negotiated = async (port: number) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca: pki.ca.cert, ALPNProtocols: ['h2', 'http/1.1'] });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    const protocol = socket.alpnProtocol;
    socket.destroy();
    return protocol;
  };

  it('offers h2, then http/1.1, when on', async () => {
    const server = createTlsPort(answer, noUpgrades, LIMITS);
    server.setSecureContext(credentials);
    const port = await listen(server, 0, '127.0.0.1');
    try {
      assert.equal(await negotiated(port), 'h2');
      const res = await http2Once(`https://127.0.0.1:${port}`, { path: '/' }, { ca: pki.ca.cert });
      assert.equal(res.text, `HTTP/2.0 127.0.0.1:${port}`);
    } finally {
      await close(server);
    }
  });

  it('speaks HTTP/1.1 only when off: an HTTP/2 client gets no h2', async () => {
    const server = createTlsPort(answer, noUpgrades, undefined);
    server.setSecureContext(credentials);
    const port = await listen(server, 0, '127.0.0.1');
    try {
      assert.equal(await negotiated(port), 'http/1.1');
      await assert.rejects(http2Once(`https://127.0.0.1:${port}`, { path: '/' }, { ca: pki.ca.cert }));
    } finally {
      await close(server);
    }
  });
});
