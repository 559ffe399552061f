import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, keylessApi } from '../support/bootstrap';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir, startTestNode } from '../support/node';
import { STORE_VARIANTS } from '../support/stores';
import { startUpstream, type Upstream } from '../support/upstream';

/**
 * Everything written through the APIs survives a restart of the node, on the embedded SQLite
 * file and on MySQL/MariaDB (when GW_TEST_MYSQL names a server).
 */
for (const store of STORE_VARIANTS) {
  describe(`persistence across a restart (${store.name})`, function () {
    let upstream: Upstream;
    let dataDir: string;
    let database: { url: string; cleanup(): Promise<void> };

    before(async function () {
      // Runs only where the server is available; .ci/run sets GW_TEST_MYSQL so CI always runs it.
      if (!store.enabled) this.skip();
      upstream = await startUpstream();
      dataDir = mkdtempSync(join(tmpdir(), 'gw-persist-'));
      database = await store.open(dataDir);
    });
    after(async () => {
      if (!store.enabled) return;
      await upstream.close();
      await database.cleanup();
      removeDir(dataDir);
    });

    it('keeps organisations, users, API definitions and the generated secrets', async () => {
      const first = await startTestNode({ dataDir, databaseUrl: database.url });
      const tenant = await createTenant(first.dashboardUrl, first.adminHeaders, 'Persisted');
      const created = await http(`${first.dashboardUrl}/api/apis`, {
        method: 'POST',
        headers: tenant.headers,
        body: keylessApi('Kept', '/kept', upstream.url),
      });
      assert.equal(created.status, 200, created.text);
      const secrets = { admin: first.config.adminSecret, gateway: first.config.secret };
      await first.stop();

      const second = await startTestNode({ dataDir, databaseUrl: database.url });
      try {
        assert.deepEqual({ admin: second.config.adminSecret, gateway: second.config.secret }, secrets);
        assert.deepEqual(second.secrets.generated, [], 'nothing is generated at the second start');
        const org = await http(`${second.dashboardUrl}/admin/organisations/${tenant.orgId}`, {
          headers: second.adminHeaders,
        });
        assert.equal(org.json.owner_name, 'Persisted');
        const user = await http(`${second.dashboardUrl}/admin/users/${tenant.userId}`, {
          headers: second.adminHeaders,
        });
        assert.equal(user.json.id, tenant.userId);
        const self = await http(`${second.dashboardUrl}/api/users/${tenant.userId}`, { headers: tenant.headers });
        assert.equal(self.status, 200, 'the access key given at creation still signs the user in');
        assert.equal(self.json.id, tenant.userId);
        const api = await http(`${second.dashboardUrl}/api/apis/${created.json.Meta}`, { headers: tenant.headers });
        assert.equal(api.status, 200);
        assert.equal(api.json.api_definition.name, 'Kept');
        await eventually(async () => {
          const proxied = await http(`${second.gatewayUrl}/kept/after-restart`);
          assert.equal(proxied.status, 200);
          assert.equal(proxied.json.url, '/after-restart');
        });
      } finally {
        await second.stop();
      }
    });
  });
}
