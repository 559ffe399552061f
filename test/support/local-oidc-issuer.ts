import { createServer, type Server } from 'node:http';
import { close, listen } from '../../lib/http/listen';
import { asymmetricKey, signToken, type AsymmetricTestKey } from './jwt-tokens';
import type { JWTPayload } from 'jose' with { 'resolution-mode': 'import' };

export interface LocalOidcIssuer {
  /** http://127.0.0.1:<port>, the `iss` of its tokens and the base of its discovery document */
  issuer: string;
  /** a token with any claims the test wants (`iss` is the issuer's unless the claims say otherwise) */
  sign(claims: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

/**
 * A bare OpenID Connect issuer: a discovery document and a key set, and tokens signed with its
 * key carrying whatever claims a test needs. The real provider (oidc-provider.ts) issues only
 * client credentials tokens, whose subject is always the client; this one can give one subject
 * tokens of several clients (the audience is the client, as in an ID token).
 */
export async function startLocalOidcIssuer(): Promise<LocalOidcIssuer> {
  const key: AsymmetricTestKey = await asymmetricKey('RS256');
  let issuer = '';
  const server: Server = createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    } else if (req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/jwk-set+json' });
      res.end(JSON.stringify({ keys: [key.publicJwk] }));
    } else res.writeHead(404).end();
  });
  const port = await listen(server, 0, '127.0.0.1');
  issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    sign: (claims) => signToken(key, { iss: issuer, ...claims }),
    close: () => close(server),
  };
}
