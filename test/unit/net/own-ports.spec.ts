import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import { close, listenAsNode } from '../../../lib/http/listen';
import { addConfiguredPorts, ownPorts } from '../../../lib/net/own-ports';

describe("this node's own ports (refused to tenant calls)", () => {
  it('holds a node server’s port while it listens, however it is closed', async () => {
    const drained = createServer();
    const closed = createServer();
    const a = await listenAsNode(drained, 0, '127.0.0.1', 'gatewayPort');
    const b = await listenAsNode(closed, 0, '127.0.0.1', 'dashboardPort');
    assert.ok(ownPorts().has(a) && ownPorts().has(b));
    await new Promise((resolve) => drained.close(resolve)); // a drain closes the server itself
    await close(closed);
    assert.ok(!ownPorts().has(a) && !ownPorts().has(b), 'a port given back to the system may go to anyone');
  });

  it('holds configured ports until the node gives them back; 0 names none', () => {
    const release = addConfiguredPorts([47_001, 0, undefined]);
    assert.ok(ownPorts().has(47_001));
    assert.ok(!ownPorts().has(0));
    release();
    assert.ok(!ownPorts().has(47_001));
  });
});
