import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiDefinition, startGatewayFixture, type GatewayFixture } from '../support/gateway-fixture';
import { eventually } from '../support/eventually';
import { AnalyticsStore } from '../../services/analytics/lib/analytics-store';
import { countryMmdb } from '../support/mmdb';
import { removeDir, startTestNode } from '../support/node';

describe('analytics: iso_country from GW_GEOIP_DB', () => {
  let gw: GatewayFixture;
  const dir = mkdtempSync(join(tmpdir(), 'gw-geoip-'));
  const database = join(dir, 'countries.mmdb');

  before(async () => {
    // A real .mmdb read by the real maxmind reader, written by test/support/mmdb.ts.
    writeFileSync(database, countryMmdb({ '81.2.69.0/24': 'GB', '2.125.160.0/20': 'FR' }));
    gw = await startGatewayFixture({ geoipDb: database, analyticsFlushInterval: 0.05 });
    await gw.addApi(apiDefinition('geo', '/geo', gw.upstream.url));
  });
  after(async () => {
    await gw?.stop();
    removeDir(dir);
  });

  it("records the client's country (X-Real-IP, X-Forwarded-For or the connection), '' when unknown", async () => {
    assert.equal((await gw.call('/geo/a', { headers: { 'x-real-ip': '81.2.69.160' } })).status, 200);
    assert.equal((await gw.call('/geo/b', { headers: { 'x-forwarded-for': '2.125.160.216, 10.0.0.1' } })).status, 200);
    assert.equal((await gw.call('/geo/c')).status, 200);
    const rows = async () =>
      (await new AnalyticsStore(gw.node.runtime.database()).rawRecords('', 'geo')).map(
        ({ path, ip_address, iso_country }) => ({ path, ip_address, iso_country }),
      );
    await eventually(async () => assert.equal((await rows()).length, 3), 5000);
    assert.deepEqual(await rows(), [
      { path: '/a', ip_address: '81.2.69.160', iso_country: 'GB' },
      { path: '/b', ip_address: '2.125.160.216', iso_country: 'FR' },
      { path: '/c', ip_address: '127.0.0.1', iso_country: '' },
    ]);
  });

  it('refuses to start a gateway node whose GW_GEOIP_DB can not be read, naming it', async () => {
    const missing = join(dir, 'missing.mmdb');
    await assert.rejects(
      startTestNode({ geoipDb: missing, services: ['proxy'], dataDir: mkdtempSync(join(dir, 'node-')) }),
      (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`GW_GEOIP_DB: can not read the GeoIP database ${missing.replace(/[.]/g, '\\.')}`),
        );
        return true;
      },
    );
  });
});
