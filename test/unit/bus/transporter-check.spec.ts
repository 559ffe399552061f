import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:net';
import { checkTransporter } from '../../../lib/bus/transporter-check';

describe('the transporter check before a node starts', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => server.close());

  it('passes when a server answers, and leaves names without an address to Moleculer', async () => {
    await checkTransporter(`nats://user:pass@127.0.0.1:${port}`);
    await checkTransporter('TCP');
    await checkTransporter(undefined);
  });

  it('names the address that refused, never the credentials of the URL', async () => {
    await assert.rejects(checkTransporter('redis://gw:sesame@127.0.0.1:1'), (err: Error) => {
      const hint = '(is the Redis server running? check the host and port)';
      assert.equal(err.message, `GW_TRANSPORTER: nothing answers at 127.0.0.1:1 ${hint}`);
      return true;
    });
  });

  it("passes a cluster's list when any of its servers answers, and names the first that refused when none does", async () => {
    await checkTransporter(`nats://127.0.0.1:1,nats://127.0.0.1:${port}`);
    await checkTransporter(`nats://127.0.0.1:1,127.0.0.1:${port}`);
    await assert.rejects(
      checkTransporter('nats://127.0.0.1:1,nats://127.0.0.1:2'),
      /nothing answers at 127\.0\.0\.1:1 /,
    );
  });

  it('refuses a transporter Moleculer does not know, which would exit the process with a stack', async () => {
    const unknownScheme = /^StartupError: GW_TRANSPORTER: unknown transporter scheme nast:\/\//;
    await assert.rejects(checkTransporter('nast://127.0.0.1:4222'), unknownScheme);
    await assert.rejects(checkTransporter('carrier-pigeon'), /GW_TRANSPORTER: unknown transporter 'carrier-pigeon'/);
  });
});
