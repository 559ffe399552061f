import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { close, listen } from '../../../lib/http/listen';
import { UI_CONTENT_SECURITY_POLICY, webUiRouter } from '../../../services/api/lib/web-ui';
import { http } from '../../support/http';

describe('the web dashboard on the dashboard port (services/api/lib/web-ui.ts)', () => {
  let folder: string;
  let server: Server;
  let base: string;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'gw-ui-serve-'));
    const app = express();
    app.use(webUiRouter(folder));
    app.get('/', (_req, res) => res.json({ name: 'gw dashboard', api: '/api' }));
    app.use((_req, res) => res.status(404).json({ Status: 'Error', Message: 'Not found', Meta: null }));
    server = createServer(app);
    base = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  });
  after(async () => {
    await close(server);
    rmSync(folder, { recursive: true, force: true });
  });

  it('says clearly, with a 503 page, that the UI is not built when its folder holds no index.html', async () => {
    const res = await http(`${base}/`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    assert.equal(res.status, 503);
    assert.match(res.text, /The web dashboard is not built/);
    assert.match(res.text, /npm run build/);
    assert.equal(res.headers.get('content-security-policy'), UI_CONTENT_SECURITY_POLICY);
  });

  it('serves index.html uncached to browsers and hashed assets cached for good, once built', async () => {
    mkdirSync(join(folder, 'assets'), { recursive: true });
    writeFileSync(
      join(folder, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script>',
    );
    writeFileSync(join(folder, 'assets', 'index-abc123.js'), 'console.log(1)');
    const page = await http(`${base}/`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'; style-src 'self'/);
    assert.doesNotMatch(UI_CONTENT_SECURITY_POLICY, /unsafe/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const asset = await http(`${base}/assets/index-abc123.js`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
  });

  it('keeps the JSON index for API clients, and missing assets are plain 404s', async () => {
    const json = await http(`${base}/`, { headers: { accept: 'application/json' } });
    assert.equal(json.json.api, '/api');
    const curl = await http(`${base}/`, { headers: { accept: '*/*' } });
    assert.equal(curl.json.api, '/api', 'curl (Accept: */*) gets JSON');
    const missing = await http(`${base}/assets/nope.js`);
    assert.equal(missing.status, 404);
    const outside = await http(`${base}/assets/..%2f..%2fetc%2fpasswd`);
    assert.equal(outside.status, 404);
  });
});
