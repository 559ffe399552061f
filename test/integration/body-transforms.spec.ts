import { strict as assert } from 'node:assert';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http } from '../support/http';
import { apiDefinition, singleVersion, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';

const blob = (text: string) => Buffer.from(text).toString('base64');

/** extended_paths.transform / transform_response: Go-template bodies over JSON and XML. */
describe('body transforms', () => {
  let gw: GatewayFixture;
  const lastReceived = () => gw.upstream.received.at(-1)!;

  before(async () => {
    const templates = mkdtempSync(join(tmpdir(), 'gw-templates-'));
    symlinkSync('/etc/hostname', join(templates, 'outside-link'));
    writeFileSync(
      join(templates, 'order.tmpl'),
      '{"id": "{{index .order "-id"}}", "items": [{{range $i, $item := .order.item}}{{if $i}},{{end}}"{{$item}}"{{end}}]}',
    );
    gw = await startGatewayFixture({ templatePath: templates });
    gw.upstream.respondWith((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        req.url.startsWith('/list')
          ? '[{"name":"a"},{"name":"b"}]'
          : JSON.stringify({ user: { first: 'Ada', last: 'Lovelace', tags: ['x', 'y'] } }),
      );
    });
    await gw.addApi(
      apiDefinition('bt', '/bt', gw.upstream.url, {
        enable_context_vars: true,
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            transform: [
              {
                path: '/json',
                method: 'POST',
                template_data: {
                  input_type: 'json',
                  template_mode: 'blob',
                  template_source: blob(
                    '{"full": "{{.first}} {{.last}}"{{if .vip}}, "tier": "gold"{{else}}, "tier": "basic"{{end}}, "via": "{{._gw_context.headers_X_Client}}", "tags": {{jsonMarshal .tags}}}',
                  ),
                },
              },
              {
                path: '/xml',
                method: 'POST',
                template_data: { input_type: 'xml', template_mode: 'file', template_source: 'order.tmpl' },
              },
              {
                path: '/fails',
                method: 'POST',
                template_data: { input_type: 'json', template_mode: 'blob', template_source: blob('{{index .l 5}}') },
              },
            ],
            transform_response: [
              {
                path: '/user',
                method: 'GET',
                template_data: {
                  input_type: 'json',
                  template_mode: 'blob',
                  template_source: blob('<user>{{xmlMarshal .user}}</user>'),
                },
              },
              {
                path: '/list',
                method: 'GET',
                template_data: {
                  input_type: 'json',
                  template_mode: 'blob',
                  template_source: blob('{{range .array}}{{.name}};{{end}}'),
                },
              },
            ],
          },
        }),
      }),
    );
  });
  after(() => gw.stop());

  it('rewrites a JSON request body with fields, if/else, context variables and jsonMarshal', async () => {
    const res = await gw.call('/bt/json', {
      method: 'POST',
      body: { first: 'Ada', last: 'Lovelace', vip: true, tags: ['a', '<b>'] },
      headers: { 'x-client': 'cli' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(lastReceived().body), {
      full: 'Ada Lovelace',
      tier: 'gold',
      via: 'cli',
      tags: ['a', '<b>'],
    });
    assert.equal(lastReceived().headers['content-length'], String(Buffer.byteLength(lastReceived().body)));
    await gw.call('/bt/json', { method: 'POST', body: { first: 'Bo', last: 'B' } });
    assert.equal(JSON.parse(lastReceived().body).tier, 'basic');
  });

  it('reads an XML body as the reference does (attributes as -name, repeated elements as lists) with a template file', async () => {
    const xml = '<?xml version="1.0"?><order id="42"><item>tea</item><item>milk</item></order>';
    await gw.call('/bt/xml', { method: 'POST', body: xml, headers: { 'content-type': 'application/xml' } });
    assert.deepEqual(JSON.parse(lastReceived().body), { id: '42', items: ['tea', 'milk'] });
  });

  it('sends the request on with its own body when the template fails to run, as the reference does', async () => {
    // gateway/mw_transform.go logs "Body transform failure" and lets the request through
    const res = await gw.call('/bt/fails', { method: 'POST', body: { l: [1] } });
    assert.equal(res.status, 200, res.text);
    assert.equal(lastReceived().url, '/fails');
    assert.deepEqual(JSON.parse(lastReceived().body), { l: [1] });
  });

  it('refuses a request body that is not the declared JSON with 400, without calling upstream', async () => {
    const before = gw.upstream.received.length;
    const res = await gw.call('/bt/json', {
      method: 'POST',
      body: 'not json',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(res.status, 400);
    assert.match(res.text, /transformation failed/);
    assert.equal(gw.upstream.received.length, before);
  });

  it('rewrites response bodies: xmlMarshal, and a JSON list as .array', async () => {
    const user = await gw.call('/bt/user');
    assert.equal(user.text, '<user><first>Ada</first><last>Lovelace</last><tags>x</tags><tags>y</tags></user>');
    assert.equal(user.headers.get('content-length'), String(Buffer.byteLength(user.text)));
    assert.equal((await gw.call('/bt/list')).text, 'a;b;');
    assert.equal((await gw.call('/bt/other')).json.user.first, 'Ada', 'other endpoints are untouched');
  });

  it('a template file outside the templates folder is refused at save time; one that escapes by a link keeps the API from loading', async () => {
    const escaping = (source: string) =>
      apiDefinition('bt-escape', '/bt-escape', gw.upstream.url, {
        version_data: singleVersion({
          use_extended_paths: true,
          extended_paths: {
            transform: [
              {
                path: '/x',
                method: 'POST',
                template_data: { input_type: 'json', template_mode: 'file', template_source: source },
              },
            ],
          },
        }),
      });
    const refused = await http(`${gw.node.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: gw.node.gwHeaders,
      body: escaping('../../etc/passwd'),
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /'\.\.' segment/);
    await gw.addApi(escaping('outside-link'));
    assert.equal((await gw.call('/bt-escape/x', { method: 'POST', body: {} })).status, 503);
  });
});
