import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { CryptoKey, JWK, JWTPayload, JWTHeaderParameters } from 'jose' with { 'resolution-mode': 'import' };
import { close, listen } from '../../lib/http/listen';

/**
 * Keys and tokens for tests of JWT authentication, made with jose (ESM-only: loaded with a
 * dynamic import from these CommonJS files), and the hand-built tokens no library would sign.
 */

export type AsymmetricAlg = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'ES256' | 'ES384' | 'EdDSA';

export interface AsymmetricTestKey {
  alg: AsymmetricAlg;
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** the public key as a JWKS entry: kid, alg and use set */
  publicJwk: JWK;
  /** the public key as SPKI PEM, as an API definition would hold it */
  publicPem: string;
}

export interface SecretTestKey {
  alg: 'HS256' | 'HS384' | 'HS512';
  kid: string;
  secret: Uint8Array;
}

export type TestKey = AsymmetricTestKey | SecretTestKey;

const jose = () => import('jose');

/** An HMAC secret of 32 random bytes. */
export function hmacKey(
  alg: SecretTestKey['alg'] = 'HS256',
  kid = `hmac-${randomBytes(4).toString('hex')}`,
): SecretTestKey {
  return { alg, kid, secret: new Uint8Array(randomBytes(32)) };
}

/**
 * A key pair for `alg`: RSA 2048 for RS* and PS256, P-256 for ES256, P-384 for ES384, Ed25519
 * for EdDSA. The kid is the key's RFC 7638 thumbprint unless given.
 */
export async function asymmetricKey(alg: AsymmetricAlg, kid?: string): Promise<AsymmetricTestKey> {
  const { generateKeyPair, exportJWK, exportSPKI, calculateJwkThumbprint } = await jose();
  const options = alg === 'EdDSA' ? { crv: 'Ed25519', extractable: true } : { modulusLength: 2048, extractable: true };
  const { privateKey, publicKey } = await generateKeyPair(alg, options);
  const jwk = await exportJWK(publicKey);
  const keyId = kid ?? (await calculateJwkThumbprint(jwk));
  return {
    alg,
    kid: keyId,
    privateKey,
    publicKey,
    publicJwk: { ...jwk, kid: keyId, alg, use: 'sig' },
    publicPem: await exportSPKI(publicKey),
  };
}

/**
 * A token signed by `key`. The header gets alg, kid and typ JWT, then `header` over them (so a
 * test may drop the kid with `{ kid: undefined }`); the claims are taken as they are (no iat
 * or exp added).
 */
export async function signToken(
  key: TestKey,
  claims: JWTPayload,
  header: Partial<JWTHeaderParameters> = {},
): Promise<string> {
  const { SignJWT } = await jose();
  const protectedHeader = withoutUndefined({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header });
  const signingKey = 'secret' in key ? key.secret : key.privateKey;
  return new SignJWT(claims).setProtectedHeader(protectedHeader as JWTHeaderParameters).sign(signingKey);
}

/** Claims valid for the next five minutes, plus `extra`. */
export function freshClaims(extra: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iat: now, exp: now + 300, ...extra };
}

/** header.payload.signature from JSON parts, with no signing: for tokens a library refuses to make. */
export function rawToken(header: object, claims: object, signature = ''): string {
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}.${signature}`;
}

/** An unsigned token (`alg: none`, empty signature), which a verifier must refuse. */
export function unsignedToken(claims: JWTPayload, header: object = {}): string {
  return rawToken({ alg: 'none', typ: 'JWT', ...header }, claims);
}

/**
 * Algorithm confusion: an HS256 token whose HMAC secret is the RSA public key's PEM text. A
 * verifier that takes the algorithm from the token and the key from the API definition would
 * accept it, since anyone can read the public key.
 */
export function algorithmConfusionToken(rsaKey: AsymmetricTestKey, claims: JWTPayload, header: object = {}): string {
  const unsigned = rawToken({ alg: 'HS256', typ: 'JWT', kid: rsaKey.kid, ...header }, claims).slice(0, -1);
  const signature = createHmac('sha256', rsaKey.publicPem).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

/** A correctly signed token of at least `bytes` characters (a padding claim makes it long). */
export async function oversizedToken(key: TestKey, bytes: number, claims: JWTPayload = freshClaims()): Promise<string> {
  // base64url makes three bytes four characters: this much padding passes the size on its own
  const padding = 'x'.repeat(Math.ceil((bytes * 3) / 4));
  return signToken(key, { ...claims, padding });
}

/**
 * Tokens broken in their encoding, made from a valid one: each should be refused as malformed,
 * never crash the verifier.
 */
export function malformedTokens(valid: string): Record<string, string> {
  const [header, payload, signature] = valid.split('.');
  return {
    'two segments': `${header}.${payload}`,
    'four segments': `${valid}.${signature}`,
    'empty segments': '..',
    'header not base64url': `!!!${header}.${payload}.${signature}`,
    'payload not base64url': `${header}.${payload}*%.${signature}`,
    'signature not base64url': `${header}.${payload}.${signature}$$`,
    'payload with base64 padding': `${header}.${payload}==.${signature}`,
    'header not JSON': `${base64url('not json')}.${payload}.${signature}`,
    'payload not JSON': `${header}.${base64url('{"sub":')}.${signature}`,
    'payload a JSON array': `${header}.${base64url('["sub"]')}.${signature}`,
  };
}

export interface JwksServer {
  /** where the key set is served (GET) */
  url: string;
  /** GET requests received so far */
  readonly requests: number;
  /** serves these keys from now on */
  setKeys(keys: Array<JWK | AsymmetricTestKey>): void;
  close(): Promise<void>;
}

/** A JWKS endpoint on 127.0.0.1 and a random port, counting how often it is fetched. */
export async function startJwksServer(keys: Array<JWK | AsymmetricTestKey>): Promise<JwksServer> {
  let body = jwksBody(keys);
  let requests = 0;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    requests += 1;
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(body);
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    get requests() {
      return requests;
    },
    setKeys(next) {
      body = jwksBody(next);
    },
    close: () => close(server),
  };
}

function jwksBody(keys: Array<JWK | AsymmetricTestKey>): string {
  return JSON.stringify({ keys: keys.map((key) => ('publicJwk' in key ? key.publicJwk : key)) });
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
