import { strict as assert } from 'node:assert';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { close, listen } from '../../../lib/http/listen';
import { guardedLookup } from '../../../lib/net/outbound-address';
import { fetchDocument } from '../../../services/apis/lib/data-source-import/document-fetch';

describe('data-source import: fetching a document by URL', () => {
  let server: Server;
  let base: string;
  const stalled: ServerResponse[] = [];
  const limits = { maxBytes: 1000, timeoutMs: 300, maxRedirects: 2 };

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big') return void res.end('x'.repeat(5000));
      if (req.url === '/stall') return void stalled.push(res);
      if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/named')
        return void res.writeHead(302, { location: 'http://metadata.internal.test/latest' }).end();
      res.writeHead(500).end('openapi: 3.0.0');
    });
    base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  });
  after(async () => {
    for (const res of stalled) res.destroy();
    await close(server);
  });

  it('returns the body whatever the status', async () => {
    assert.deepEqual(await fetchDocument(`${base}/any`, limits), { text: 'openapi: 3.0.0', url: `${base}/any` });
  });

  it('refuses a body larger than the limit (400)', async () => {
    await assert.rejects(fetchDocument(`${base}/big`, limits), {
      type: 'GW_ERR_APIS_IMPORT_INVALID',
      code: 400,
      message: 'The document is larger than 1000 bytes',
    });
  });

  it('gives up on a server that does not answer in time (500)', async () => {
    await assert.rejects(fetchDocument(`${base}/stall`, limits), {
      type: 'GW_ERR_APIS_IMPORT_FETCH',
      code: 500,
      message: `Could not fetch the document at ${base}/stall: no complete answer in time`,
    });
  });

  it('follows a bounded number of redirects, then takes the last answer as the body', async () => {
    assert.deepEqual(await fetchDocument(`${base}/loop`, limits), { text: '', url: `${base}/loop` });
  });

  it('checks every redirect target through the lookup: a name resolving to a metadata address is refused (400)', async () => {
    const lookup = guardedLookup((hostname, _options, callback) =>
      callback(null, [{ address: hostname === 'metadata.internal.test' ? '169.254.169.254' : '127.0.0.1', family: 4 }]),
    );
    await assert.rejects(fetchDocument(`${base}/named`, limits, lookup), {
      type: 'GW_ERR_APIS_IMPORT_URL_REFUSED',
      code: 400,
      message: `The document URL ${base}/named is refused: metadata.internal.test resolves to 169.254.169.254, which is a link-local, cloud-metadata or multicast address; the management server does not fetch from such addresses`,
    });
  });
});
