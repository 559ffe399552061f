import { strict as assert } from 'node:assert';
import { checkHealth } from '../../app/healthcheck';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';

describe('liveness checks (deploy/Dockerfile HEALTHCHECK)', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ secret: 'liveness-secret' });
  });
  after(async () => {
    await node.stop();
    removeDir(node.dataDir);
  });

  it('answers GET /hello on the gateway port without the secret', async () => {
    const res = await http(`${node.gatewayUrl}/hello`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { status: 'pass', description: 'gw gateway' });
    assert.equal((await http(`${node.gatewayUrl}/gw/health`)).status, 403, '/gw/health still needs the secret');
  });

  it('answers another method on /hello 405, as the reference does', async () => {
    const res = await http(`${node.gatewayUrl}/hello`, { method: 'POST', body: {} });
    assert.equal(res.status, 405);
    assert.deepEqual(res.json, { status: 'error', message: 'Method Not Allowed' });
  });

  it('passes the health check of a running node, and names the port that does not answer', async () => {
    const ports = { gatewayPort: node.portOf('proxy')!, dashboardPort: node.portOf('api')! };
    assert.deepEqual(await checkHealth({ ...node.config, ...ports }), []);
    const [problem, ...more] = await checkHealth({
      ...node.config,
      ...ports,
      services: ['gateway'],
      gatewayPort: ports.dashboardPort,
    });
    assert.match(problem, /\/hello answered 404/);
    assert.deepEqual(more, []);
  });
});
