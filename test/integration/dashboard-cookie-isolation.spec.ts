import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { close, listen } from '../../lib/http/listen';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * Cookies are not scoped by port: a browser signed in to the dashboard sends its login cookie to
 * the gateway port of the same host too. No organisation's upstream may ever receive it.
 */
describe("the dashboard's login cookie never reaches an upstream", () => {
  let node: TestNode;
  let tenant: Tenant;
  let upstream: Upstream;
  let wsServer: Server;
  let wss: WebSocketServer;
  const wsUpgrades: IncomingHttpHeaders[] = [];
  let graphServer: Server;
  const graphRequests: IncomingHttpHeaders[] = [];
  const dashboard = (path: string, body: unknown) =>
    http(`${node.dashboardUrl}/api${path}`, { method: 'POST', headers: tenant.headers, body });
  const createApi = async (definition: unknown) => {
    const res = await dashboard('/apis', definition);
    assert.equal(res.status, 200, res.text);
    return res.json.ID as string;
  };
  const lastCookie = () => upstream.received.at(-1)!.headers.cookie;

  before(async () => {
    upstream = await startUpstream();
    wsServer = createServer((_req, res) => res.end('plain http'));
    wss = new WebSocketServer({ server: wsServer });
    wss.on('connection', (socket, req) => {
      wsUpgrades.push(req.headers);
      socket.send('welcome');
    });
    const wsPort = await listen(wsServer, 0, '127.0.0.1');
    graphServer = createServer((req, res) => {
      graphRequests.push(req.headers);
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { hello: 'hi' } })),
      );
    });
    const graphPort = await listen(graphServer, 0, '127.0.0.1');
    node = await startTestNode();
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'Cookie Jar');
    await createApi(keylessApi('Plain', '/plain', upstream.url));
    await createApi(keylessApi('Sockets', '/sockets', `http://127.0.0.1:${wsPort}`));
    await createApi(
      keylessApi('Graph', '/graph', `http://127.0.0.1:${graphPort}/graphql`, {
        graphql: { enabled: true, execution_mode: 'proxyOnly', schema: 'type Query { hello: String }' },
      }),
    );
    const cookieAuth = await createApi(
      keylessApi('Cookie auth', '/cookie-auth', upstream.url, {
        use_keyless: false,
        auth: { use_cookie: true, cookie_name: 'apikey' },
      }),
    );
    const key = await http(`${node.dashboardUrl}/api/keys`, {
      method: 'POST',
      headers: tenant.headers,
      body: { access_rights: { [cookieAuth]: { api_id: cookieAuth } } },
    });
    assert.equal(key.status, 200, key.text);
    cookieKey = key.json.key_id;
    await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/plain/ready`)).status, 200), 5000);
  });
  let cookieKey: string;
  after(async () => {
    await node.stop();
    await upstream.close();
    wss.close();
    await close(wsServer);
    await close(graphServer);
    removeDir(node.dataDir);
  });

  const proxied = (cookie: string) => http(`${node.gatewayUrl}/plain/x`, { headers: { cookie } });

  it('removes gw-session from the Cookie header of a proxied request, other cookies kept as sent', async () => {
    assert.equal((await proxied('a=1; gw-session=SECRET; b=2')).status, 200);
    assert.equal(lastCookie(), 'a=1; b=2');
    assert.equal((await proxied('gw-session=SECRET;  theme=dark=yes; lang="en"')).status, 200);
    assert.equal(lastCookie(), 'theme=dark=yes; lang="en"');
    assert.equal((await proxied('a=1; b=2')).status, 200);
    assert.equal(lastCookie(), 'a=1; b=2');
  });

  it('drops the Cookie header when the login cookie was its only cookie, under either name', async () => {
    assert.equal((await proxied('gw-session=SECRET')).status, 200);
    assert.equal(lastCookie(), undefined);
    assert.equal((await proxied('__Host-gw-session=SECRET; gw-session=OTHER')).status, 200);
    assert.equal(lastCookie(), undefined);
    assert.equal((await proxied('x=1; __Host-gw-session=SECRET')).status, 200);
    assert.equal(lastCookie(), 'x=1');
  });

  it('keeps authenticating an API that reads its key from a cookie, without passing the login cookie on', async () => {
    const res = await http(`${node.gatewayUrl}/cookie-auth/x`, {
      headers: { cookie: `gw-session=SECRET; apikey=${cookieKey}` },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(lastCookie(), `apikey=${cookieKey}`);
  });

  it('removes it from a WebSocket upgrade', async () => {
    const socket = new WebSocket(`${node.gatewayUrl.replace('http', 'ws')}/sockets/chat`, {
      headers: { cookie: 'a=1; gw-session=SECRET; b=2' },
    });
    await new Promise<void>((resolve, reject) => {
      socket.on('message', () => resolve());
      socket.on('error', reject);
    });
    socket.close();
    assert.equal(wsUpgrades.at(-1)!.cookie, 'a=1; b=2');
  });

  it('removes it from what a GraphQL proxy-only API sends upstream', async () => {
    const res = await http(`${node.gatewayUrl}/graph`, {
      method: 'POST',
      headers: { cookie: 'a=1; gw-session=SECRET; b=2' },
      body: { query: '{ hello }' },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { data: { hello: 'hi' } });
    assert.equal(graphRequests.at(-1)!.cookie, 'a=1; b=2');
  });
});
