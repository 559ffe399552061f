import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { guardedLookup } from '../../../lib/net/outbound-address';
import { tenantAgent } from '../../../lib/net/tenant-agent';

/** Connections made on a tenant's behalf (webhooks, data sources, uptime checks, virtual endpoints). */
describe("tenant agent (outbound calls on a tenant's behalf)", () => {
  let own: Server;
  let other: Server;
  let ownHits = 0;
  const portOf = (server: Server) => (server.address() as AddressInfo).port;

  before(async () => {
    own = createServer((_req, res) => void (ownHits++, res.end('own')));
    other = createServer((_req, res) => res.end('other'));
    await Promise.all(
      [own, other].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))),
    );
  });
  after(() => Promise.all([own, other].map((server) => new Promise((resolve) => server.close(resolve)))));

  const agentFor = (answers: () => string) =>
    tenantAgent({
      ownPorts: () => new Set([portOf(own)]),
      lookup: guardedLookup((_hostname, _options, callback) => callback(null, [{ address: answers(), family: 4 }])),
    });
  const get = async (url: string, dispatcher: ReturnType<typeof tenantAgent>) => {
    const response = await request(url, { dispatcher });
    return response.body.text();
  };

  it("refuses this node's own ports on a local address, by IP literal or by name, before a request is sent", async () => {
    const agent = agentFor(() => '127.0.0.1');
    await assert.rejects(
      get(`http://127.0.0.1:${portOf(own)}/gw/apis`, agent),
      /127\.0\.0\.1:\d+ is a port of this gw node/,
    );
    await assert.rejects(
      get(`http://internal.example:${portOf(own)}/gw/apis`, agent),
      /internal\.example:\d+ is a port of this gw node/,
    );
    assert.equal(ownHits, 0);
    await agent.close();
  });

  it('lets other loopback ports through (local upstreams in development and tests)', async () => {
    const agent = agentFor(() => '127.0.0.1');
    assert.equal(await get(`http://internal.example:${portOf(other)}/`, agent), 'other');
    await agent.close();
  });

  it('refuses a name that resolves to a cloud-metadata address', async () => {
    const agent = agentFor(() => '169.254.169.254');
    await assert.rejects(
      get('http://metadata.example/latest/', agent),
      /169\.254\.169\.254, which is a link-local, cloud-metadata or multicast address/,
    );
    await agent.close();
  });
});
