import { strict as assert } from 'node:assert';
import { createTenant, type Tenant } from '../../support/bootstrap';
import { eventually } from '../../support/eventually';
import { http } from '../../support/http';
import { connectHttp2, http2Request } from '../../support/http2-client';
import { removeDir, startTestNode, type TestNode } from '../../support/node';
import { STREAMS_TYPE, streamsDocument } from '../../support/stream-apis';
import { SseReader } from '../../support/stream-clients';

/** A streams API's HTTP input behaves the same whichever HTTP version its client speaks. */
describe('HTTP/2: a streams API takes messages from an HTTP/2 client', () => {
  let node: TestNode;
  let tenant: Tenant;

  before(async () => {
    node = await startTestNode({ gatewayH2c: true, streamsDrainTimeout: 1 });
    tenant = await createTenant(node.dashboardUrl, node.adminHeaders, 'H2 streamers');
    const res = await http(`${node.dashboardUrl}/api/apis/streams`, {
      method: 'POST',
      headers: { ...tenant.headers, ...STREAMS_TYPE },
      body: JSON.stringify(
        streamsDocument('H2 in', '/h2-in/', {
          relay: { input: { http_server: { path: '/in' } }, output: { http_server: { stream_path: '/sse' } } },
        }),
      ),
    });
    assert.equal(res.status, 200, res.text);
    await eventually(
      async () => assert.notEqual((await http(`${node.gatewayUrl}/h2-in/no-such-stream-path`)).status, 404),
      5000,
    );
  });
  after(async () => {
    await node?.stop();
    if (node) removeDir(node.dataDir);
  });

  it('delivers what an HTTP/2 client posts (with and without a stated length) to an HTTP/1.1 reader', async () => {
    const reader = await SseReader.open(`${node.gatewayUrl}/h2-in/sse`);
    const session = await connectHttp2(node.gatewayUrl);
    try {
      const stated = await http2Request(session, {
        method: 'POST',
        path: '/h2-in/in',
        headers: { 'content-length': '5' },
        body: 'first',
      });
      assert.equal(stated.status, 200, stated.text);
      const streamed = await http2Request(session, { method: 'POST', path: '/h2-in/in', body: ['sec', 'ond'] });
      assert.equal(streamed.status, 200, streamed.text);
      assert.deepEqual(await reader.waitFor(2), ['first', 'second']);
    } finally {
      reader.close();
      session.close();
    }
  });
});
