import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { introspectUpstream } from '../../../services/apis/lib/schema-sync';

const MiB = 1024 * 1024;

describe('apis: the introspection answer of a GraphQL upstream is read up to a bound', () => {
  let server: Server;
  let url: string;
  /** bytes of padding the upstream sends inside its JSON answer */
  let padding = 0;

  before(async () => {
    server = createServer(async (_req, res) => {
      // Chunked, no content-length: only counting the bytes as they arrive can stop it.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        '{"data":{"__schema":{"queryType":{"name":"Query"},"types":[{"kind":"OBJECT","name":"Query","fields":[{"name":"ok","args":[],"type":{"kind":"SCALAR","name":"String"}}],"interfaces":[]},{"kind":"SCALAR","name":"String"}],"directives":[]}},"pad":"',
      );
      const chunk = 'x'.repeat(64 * 1024);
      for (let sent = 0; sent < padding && !res.destroyed; sent += chunk.length) {
        if (!res.write(chunk))
          await new Promise((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
      }
      res.end('"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  it('refuses an answer larger than the bound with a 502 naming the limit', async () => {
    padding = 12 * MiB;
    await assert.rejects(introspectUpstream(url, {}), (err: Error & { code?: number; type?: string }) => {
      assert.equal(err.type, 'GW_ERR_APIS_UPSTREAM');
      assert.equal(err.code, 502);
      assert.equal(
        err.message,
        `The GraphQL upstream ${url} answered the introspection query with more than ${10 * MiB} bytes`,
      );
      return true;
    });
  });

  it('reads an answer within the bound', async () => {
    padding = 64 * 1024;
    assert.match(await introspectUpstream(url, {}), /type Query {\n {2}ok: String\n}/);
  });
});
