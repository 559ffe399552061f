import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi, type Tenant } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode, type TestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

const OVERLAP = (listenPath: string) =>
  `Listen path ${listenPath} overlaps a listen path of another organisation on the same domain; choose another listen path or set a domain of your own`;

for (const store of STORE_VARIANTS)
  describe(`route ownership: one organisation's requests never reach another's API (${store.name})`, () => {
    let node: TestNode;
    let database: { url: string; cleanup(): Promise<void> };
    let acme: Tenant;
    let globex: Tenant;
    let acmeUpstream: Upstream;
    let globexUpstream: Upstream;
    const api = (tenant: Tenant, path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.dashboardUrl}/api${path}`, { ...options, headers: tenant.headers });
    const gw = (path: string, options: { method?: string; body?: unknown } = {}) =>
      http(`${node.gatewayUrl}/gw${path}`, { ...options, headers: node.gwHeaders });

    before(async function () {
      if (!store.enabled) this.skip();
      const dataDir = mkdtempSync(join(tmpdir(), 'gw-routes-'));
      database = await store.open(dataDir);
      node = await startTestNode({ dataDir, databaseUrl: database.url });
      acme = await createTenant(node.dashboardUrl, node.adminHeaders, 'Acme');
      globex = await createTenant(node.dashboardUrl, node.adminHeaders, 'Globex');
      acmeUpstream = await startUpstream();
      globexUpstream = await startUpstream();
      const created = await api(acme, '/apis', {
        method: 'POST',
        body: keylessApi('Acme fuzz', '/fuzz/', acmeUpstream.url),
      });
      assert.equal(created.status, 200, created.text);
    });
    after(async () => {
      if (!node) return;
      await node.stop();
      await acmeUpstream.close();
      await globexUpstream.close();
      await database.cleanup();
      removeDir(node.dataDir);
    });

    for (const [what, listenPath, domain] of [
      ['a listen path inside it', '/fuzz/sub/', undefined],
      ['the same listen path with a domain', '/fuzz/', '127.0.0.1'],
      ['a path inside it with a domain', '/fuzz/sub', '127.0.0.1'],
      ['the root path', '/', undefined],
    ] as const) {
      it(`refuses another organisation ${what} with 400, naming nobody`, async () => {
        const extra = domain === undefined ? {} : { domain };
        const res = await api(globex, '/apis', {
          method: 'POST',
          body: keylessApi('Globex', listenPath, globexUpstream.url, extra),
        });
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json, { Status: 'Error', Message: OVERLAP(listenPath), Meta: null });
        assert.doesNotMatch(res.text, /Acme/);
      });
    }

    it("refuses moving another organisation's API under the path on update, and keeps serving the owner", async () => {
      const created = await api(globex, '/apis', {
        method: 'POST',
        body: keylessApi('Globex', '/globex/', globexUpstream.url),
      });
      assert.equal(created.status, 200, created.text);
      const moved = await api(globex, `/apis/${created.json.Meta}`, {
        method: 'PUT',
        body: keylessApi('Globex', '/fuzz/sub', globexUpstream.url),
      });
      assert.equal(moved.status, 400);
      assert.equal(moved.json.Message, OVERLAP('/fuzz/sub'));
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/fuzz/sub/x`)).json?.url, '/sub/x'));
      assert.equal(globexUpstream.received.length, 0);
    });

    it('refuses the same through /gw in its shape ({status, message}) for an API without org_id', async () => {
      const res = await gw('/apis', {
        method: 'POST',
        body: {
          name: 'node api',
          api_id: 'node-fuzz',
          use_keyless: true,
          proxy: { listen_path: '/fuzz/x', target_url: globexUpstream.url },
        },
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, { status: 'error', message: OVERLAP('/fuzz/x') });
    });

    it('lets the owner nest its own APIs', async () => {
      const inner = await api(acme, '/apis', {
        method: 'POST',
        body: keylessApi('Acme inner', '/fuzz/inner/', `${acmeUpstream.url}/inner`),
      });
      assert.equal(inner.status, 200, inner.text);
      const host = await api(acme, '/apis', {
        method: 'POST',
        body: keylessApi('Acme host', '/fuzz/', `${acmeUpstream.url}/host`, { domain: 'acme.test' }),
      });
      assert.equal(host.status, 200, host.text);
      await eventually(async () => assert.equal((await http(`${node.gatewayUrl}/fuzz/inner/y`)).json?.url, '/inner/y'));
    });

    it('lets exactly one of two organisations win a race for nested paths', async () => {
      const results = await Promise.all([
        api(acme, '/apis', { method: 'POST', body: keylessApi('Acme race', '/race/', acmeUpstream.url) }),
        api(globex, '/apis', { method: 'POST', body: keylessApi('Globex race', '/race/sub/', globexUpstream.url) }),
        api(globex, '/apis', { method: 'POST', body: keylessApi('Globex race 2', '/race/other/', globexUpstream.url) }),
      ]);
      const statuses = results.map((r) => r.status);
      assert.ok(
        statuses.every((s) => s === 200 || s === 400),
        statuses.join(),
      );
      const winners = results.filter((r) => r.status === 200).length;
      assert.ok(statuses[0] === 200 ? winners === 1 : winners === 2, `statuses ${statuses.join()}`);
      for (const lost of results.filter((r) => r.status === 400))
        assert.match(lost.json.Message, /overlaps a listen path of another organisation/);
    });

    it('answers every write of a burst of concurrent ones with 200 or a clear 400, never a 500', async () => {
      // Many writers near the same paths make MySQL break lock ties by failing one transaction;
      // that one is retried, not answered with a 500.
      const planned = [
        { org: 'acme', path: '/burst/' },
        ...Array.from({ length: 8 }, (_, i) => ({ org: 'globex', path: `/burst/g${i}/` })),
        ...Array.from({ length: 4 }, (_, i) => ({ org: 'acme', path: `/burst/a${i}/` })),
      ];
      const results = await Promise.all(
        planned.map(({ org, path }, i) =>
          api(org === 'acme' ? acme : globex, '/apis', {
            method: 'POST',
            body: keylessApi(`${org} burst ${i}`, path, org === 'acme' ? acmeUpstream.url : globexUpstream.url),
          }),
        ),
      );
      const statuses = results.map((r) => r.status);
      assert.ok(
        statuses.every((s) => s === 200 || s === 400),
        statuses.join(),
      );
      for (const lost of results.filter((r) => r.status === 400))
        assert.match(lost.json.Message, /overlaps a listen path of another organisation/);
      // Sibling paths (/burst/g0/, /burst/a0/) may belong to different organisations once nobody
      // holds /burst/ itself; nested ones never.
      const won = planned.filter((_, i) => statuses[i] === 200);
      for (const one of won) {
        for (const other of won) {
          if (one.org !== other.org)
            assert.ok(
              !other.path.startsWith(one.path),
              `${one.org} holds ${one.path} and ${other.org} ${other.path}: ${statuses.join()}`,
            );
        }
      }
    });
  });
