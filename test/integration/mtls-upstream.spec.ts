import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { WebSocket, WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { createTestPki, type Issued, type TestPki } from '../support/certificates';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

/** `upstream_certificates`: the gateway presents a client certificate from the store to an HTTPS upstream that requires one. */
describe('upstream client certificates (upstream_certificates)', () => {
  let pki: TestPki;
  let gatewayClient: Issued;
  let upstream: Server;
  let wss: WebSocketServer;
  let upstreamUrl: string;
  /** the common name of the client certificate each request to the upstream came with */
  const seen: string[] = [];
  let node: TestNode;
  let acme: Tenant;
  let globex: Tenant;
  let certId: string;
  const create = async (
    tenant: Tenant,
    name: string,
    extra: Record<string, unknown>,
    transport: Record<string, unknown> = { ssl_insecure_skip_verify: true },
  ) => {
    const body = keylessApi(name, `/${name}`, upstreamUrl, extra);
    Object.assign(body.api_definition.proxy, { transport });
    const res = await http(`${node.dashboardUrl}/api/apis`, { method: 'POST', headers: tenant.headers, body });
    assert.equal(res.status, 200, res.text);
    await eventually(async () => assert.notEqual((await http(`${node.gatewayUrl}/${name}/`)).status, 404), 3000);
  };
  const call = (name: string) => http(`${node.gatewayUrl}/${name}/x`);

  before(async () => {
    pki = createTestPki();
    const upstreamCert = pki.issue('upstream', { ips: ['127.0.0.1'] });
    gatewayClient = pki.issue('gateway as a client');
    // An upstream that accepts only clients with a certificate from the test CA.
    upstream = createServer(
      { cert: upstreamCert.cert, key: upstreamCert.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const client = String((req.socket as TLSSocket).getPeerCertificate().subject.CN);
        seen.push(client);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client }));
      },
    );
    // The same upstream speaks WebSocket (wss): it greets each socket with its client certificate's name.
    wss = new WebSocketServer({ server: upstream });
    wss.on('connection', (socket, req) =>
      socket.send(`hello ${String((req.socket as TLSSocket).getPeerCertificate().subject.CN)}`),
    );
    upstreamUrl = `https://127.0.0.1:${await listen(upstream, 0, '127.0.0.1')}`;
    node = await startTestNode();
    acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
    globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
    const added = await http(`${node.dashboardUrl}/api/certs`, {
      method: 'POST',
      headers: acme.headers,
      body: gatewayClient.cert + gatewayClient.key,
    });
    assert.equal(added.status, 200, added.text);
    certId = added.json.id;
    await create(acme, 'by-host', { upstream_certificates: { '127.0.0.1': certId } });
    await create(acme, 'by-wildcard', { upstream_certificates: { '*': certId } });
    await create(acme, 'other-host', { upstream_certificates: { 'api.example.com': certId } });
    await create(acme, 'none', {});
    await create(acme, 'verified', { upstream_certificates: { '*': certId } }, {});
    // Saving it is refused; a definition file is not checked that way, so the gateway's own guard serves it.
    const foreign = keylessApi('foreign', '/foreign', upstreamUrl, { upstream_certificates: { '*': certId } });
    const refused = await http(`${node.dashboardUrl}/api/apis`, {
      method: 'POST',
      headers: globex.headers,
      body: foreign,
    });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(
      refused.json.Message,
      `upstream_certificates["*"]: certificate ${certId} is not in the certificate store of this organisation`,
    );
    mkdirSync(node.config.appsDir, { recursive: true });
    const file = { ...foreign.api_definition, api_id: 'foreign', org_id: globex.orgId };
    Object.assign(file.proxy, { transport: { ssl_insecure_skip_verify: true } });
    writeFileSync(join(node.config.appsDir, 'foreign.json'), JSON.stringify(file));
    assert.equal((await http(`${node.gatewayUrl}/gw/reload`, { headers: node.gwHeaders })).status, 200);
    await eventually(async () => assert.notEqual((await http(`${node.gatewayUrl}/foreign/`)).status, 404), 3000);
  });
  after(async () => {
    await node.stop();
    wss.close();
    await close(upstream);
    removeDir(node.dataDir);
    pki.cleanup();
  });

  for (const name of ['by-host', 'by-wildcard']) {
    it(`presents the stored certificate and key to the upstream (${name})`, async () => {
      const res = await call(name);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { client: 'gateway as a client' });
    });
  }

  const refused: Array<[string, string]> = [
    ['the API names no certificate', 'none'],
    ['the certificate is for another domain', 'other-host'],
    ['the certificate belongs to another organisation', 'foreign'],
  ];
  for (const [what, name] of refused) {
    it(`presents none when ${what}: the upstream refuses the handshake, the client gets 502`, async () => {
      const before = seen.length;
      const res = await call(name);
      assert.equal(res.status, 502, res.text);
      assert.deepEqual(res.json, { error: 'There was a problem proxying the request' });
      assert.equal(seen.length, before);
    });
  }

  it("still verifies the upstream's own certificate unless ssl_insecure_skip_verify is set", async () => {
    const res = await call('verified');
    assert.equal(res.status, 502, res.text);
  });

  /** Opens a WebSocket through the gateway: the upstream's greeting, or the status the upgrade was refused with. */
  const openSocket = (name: string) =>
    new Promise<{ greeting?: string; status?: number }>((resolve, reject) => {
      const socket = new WebSocket(`${node.gatewayUrl.replace('http', 'ws')}/${name}/ws`);
      socket.on('message', (data) => {
        resolve({ greeting: data.toString() });
        socket.close();
      });
      socket.on('unexpected-response', (_req, res) => {
        resolve({ status: res.statusCode });
        res.resume();
        socket.terminate();
      });
      socket.on('error', reject);
    });

  for (const name of ['by-host', 'by-wildcard']) {
    it(`presents the same certificate on a WebSocket tunnel to a wss upstream (${name})`, async () => {
      assert.deepEqual(await openSocket(name), { greeting: 'hello gateway as a client' });
    });
  }

  it('presents none on a WebSocket tunnel when the API names none: the upstream refuses the handshake, 502', async () => {
    assert.deepEqual(await openSocket('none'), { status: 502 });
  });

  it('stops presenting a certificate removed from the store', async () => {
    assert.equal((await call('by-host')).status, 200);
    const del = await http(`${node.dashboardUrl}/api/certs/${certId}`, { method: 'DELETE', headers: acme.headers });
    assert.equal(del.status, 200, del.text);
    await eventually(async () => assert.equal((await call('by-host')).status, 502), 3000);
  });
});
