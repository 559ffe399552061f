import { strict as assert } from 'node:assert';
import { OpenIdDiscovery } from '../../../lib/jwt/openid-discovery';

const ISSUER = 'https://idp.example/realms/gw';
const DISCOVERY_URL = `${ISSUER}/.well-known/openid-configuration`;
const HOUR = 60 * 60_000;

describe('OpenIdDiscovery', () => {
  let documents: Map<string, unknown>;
  let fetched: string[];
  let now: number;
  let failing: boolean;
  let discovery: OpenIdDiscovery;

  beforeEach(() => {
    documents = new Map([[DISCOVERY_URL, { issuer: ISSUER, jwks_uri: `${ISSUER}/certs` }]]);
    fetched = [];
    now = 5_000_000;
    failing = false;
    discovery = new OpenIdDiscovery(
      async (url) => {
        fetched.push(url);
        if (failing) throw new Error(`${url} answered 503`);
        if (!documents.has(url)) throw new Error(`${url} answered 404`);
        return documents.get(url);
      },
      () => now,
    );
  });

  it("finds the key set URL in the issuer's discovery document", async () => {
    assert.equal(await discovery.jwksUri(ISSUER), `${ISSUER}/certs`);
    assert.deepEqual(fetched, [DISCOVERY_URL]);
  });

  it('reads the document of an issuer with a trailing slash without doubling it', async () => {
    documents.set(DISCOVERY_URL, { issuer: `${ISSUER}/`, jwks_uri: `${ISSUER}/certs` });
    assert.equal(await discovery.jwksUri(`${ISSUER}/`), `${ISSUER}/certs`);
    assert.deepEqual(fetched, [DISCOVERY_URL]);
  });

  it('refuses a document that names another issuer', async () => {
    documents.set(DISCOVERY_URL, { issuer: 'https://evil.example', jwks_uri: 'https://evil.example/certs' });
    await assert.rejects(discovery.jwksUri(ISSUER), /names another issuer/);
  });

  it('refuses a document without an http(s) jwks_uri', async () => {
    for (const jwksUri of [undefined, '', 42, 'file:///etc/keys.json', 'javascript:alert(1)']) {
      documents.set(DISCOVERY_URL, { issuer: ISSUER, jwks_uri: jwksUri });
      await assert.rejects(new OpenIdDiscovery(async () => documents.get(DISCOVERY_URL)).jwksUri(ISSUER), /jwks_uri/);
    }
  });

  it('refuses a document that is not an object', async () => {
    for (const document of [null, 'text', 7]) {
      await assert.rejects(new OpenIdDiscovery(async () => document).jwksUri(ISSUER), /no discovery document/);
    }
  });

  it('caches the answer for an hour, then reads the document again', async () => {
    await discovery.jwksUri(ISSUER);
    now += HOUR - 1;
    await discovery.jwksUri(ISSUER);
    assert.equal(fetched.length, 1);
    documents.set(DISCOVERY_URL, { issuer: ISSUER, jwks_uri: `${ISSUER}/certs-2` });
    now += 1;
    assert.equal(await discovery.jwksUri(ISSUER), `${ISSUER}/certs-2`);
    assert.equal(fetched.length, 2);
  });

  it('concurrent lookups share one fetch', async () => {
    const uris = await Promise.all(Array.from({ length: 10 }, () => discovery.jwksUri(ISSUER)));
    assert.deepEqual(new Set(uris), new Set([`${ISSUER}/certs`]));
    assert.equal(fetched.length, 1);
  });

  it('a failing provider is not asked again for 5 s; a known answer keeps serving meanwhile', async () => {
    failing = true;
    await assert.rejects(discovery.jwksUri(ISSUER), /503/);
    await assert.rejects(discovery.jwksUri(ISSUER), /503/);
    assert.equal(fetched.length, 1);
    failing = false;
    now += 5_000;
    assert.equal(await discovery.jwksUri(ISSUER), `${ISSUER}/certs`);
    assert.equal(fetched.length, 2);

    failing = true;
    now += HOUR;
    assert.equal(await discovery.jwksUri(ISSUER), `${ISSUER}/certs`);
    assert.equal(await discovery.jwksUri(ISSUER), `${ISSUER}/certs`);
    assert.equal(fetched.length, 3);
  });

  it('flush forgets every answer', async () => {
    await discovery.jwksUri(ISSUER);
    discovery.flush();
    await discovery.jwksUri(ISSUER);
    assert.equal(fetched.length, 2);
  });
});
