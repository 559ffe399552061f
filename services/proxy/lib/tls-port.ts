import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer, type Server } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { CertificateMaterial } from '../../../contracts/certs/actions';
import { ConfigError, type GwConfig } from '../../../lib/config/load-config';
import { closeIdleSessions, http2Options, type Http2Limits } from './http2-port';

type TlsConfig = Pick<GwConfig, 'gatewayTlsPort' | 'gatewayTlsCertFile' | 'gatewayTlsKeyFile' | 'gatewayTlsCertId'>;

/** The HTTPS port's server: node:https, or node:http2 with HTTP/1.1 beside it. */
export type TlsPortServer = Server | Http2SecureServer;

/**
 * The HTTPS port beside the HTTP one: the same handler, with client certificates requested but
 * not required (and not checked against a CA), so each API decides (`use_mutual_tls_auth`).
 * With `http2` (GW_GATEWAY_HTTP2) a client that offers `h2` in ALPN speaks HTTP/2, any other
 * HTTP/1.1 on the same port (WebSocket upgrades included). Its certificate comes from
 * `readTlsFiles`, or from the store once the node has started.
 */
export function createTlsPort(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void,
  http2?: Http2Limits,
): TlsPortServer {
  const tls = { requestCert: true, rejectUnauthorized: false };
  if (!http2) {
    const server = createServer({ keepAliveTimeout: 65_000, ...tls }, handle);
    server.on('upgrade', upgrade);
    return server;
  }
  // The HTTP/2 request and response stand in for node:http's: http2-port.ts makes them look alike.
  const server = createSecureServer({ ...http2Options(http2), ...tls, allowHTTP1: true }, handle as never);
  // read by node's HTTP/1.1 connection handling on this server too
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;
  closeIdleSessions(server, http2.http2IdleTimeout * 1000);
  server.on('upgrade', upgrade);
  return server;
}

/**
 * The certificate and key of the HTTPS port named by files (GW_GATEWAY_TLS_CERT_FILE and _KEY_FILE),
 * or undefined when GW_GATEWAY_TLS_CERT_ID names one of the store. Read when the service is
 * created, so that a file gw can not use stops the start before any service has started.
 */
export function readTlsFiles(config: TlsConfig): { cert: string; key: string } | undefined {
  const { gatewayTlsCertFile: certFile, gatewayTlsKeyFile: keyFile, gatewayTlsCertId: certId } = config;
  if (certId !== undefined) {
    if (certFile !== undefined || keyFile !== undefined)
      throw new ConfigError(
        'GW_GATEWAY_TLS_CERT_ID and GW_GATEWAY_TLS_CERT_FILE/GW_GATEWAY_TLS_KEY_FILE exclude each other: name the certificate one way',
      );
    return undefined;
  }
  if (certFile === undefined || keyFile === undefined) {
    throw new ConfigError(
      'GW_GATEWAY_TLS_PORT needs GW_GATEWAY_TLS_CERT_FILE and GW_GATEWAY_TLS_KEY_FILE, or GW_GATEWAY_TLS_CERT_ID',
    );
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(`${name}: cannot read ${file}: ${(err as Error).message}`);
    }
  };
  const credentials = {
    cert: read('GW_GATEWAY_TLS_CERT_FILE', certFile),
    key: read('GW_GATEWAY_TLS_KEY_FILE', keyFile),
  };
  return usable('GW_GATEWAY_TLS_CERT_FILE and GW_GATEWAY_TLS_KEY_FILE', credentials);
}

/** The certificate and key of the HTTPS port from the certificate store (GW_GATEWAY_TLS_CERT_ID). */
export async function loadStoredTlsCredentials(
  certId: string,
  fromStore: (id: string) => Promise<CertificateMaterial | undefined>,
): Promise<{ cert: string; key: string }> {
  const material = await fromStore(certId);
  if (!material) {
    throw new ConfigError(`GW_GATEWAY_TLS_CERT_ID: no certificate ${certId} in the certificate store`);
  }
  if (!material.key_pem) {
    throw new ConfigError(`GW_GATEWAY_TLS_CERT_ID: certificate ${certId} has no private key in the store`);
  }
  return usable('GW_GATEWAY_TLS_CERT_ID', { cert: material.cert_pem, key: material.key_pem });
}

/** The credentials, once OpenSSL takes them: else a line naming the settings and what is wrong. */
function usable(settings: string, credentials: { cert: string; key: string }): { cert: string; key: string } {
  try {
    createSecureContext(credentials);
  } catch (err) {
    const reason = (err as Error).message;
    const hint = /key values mismatch/.test(reason)
      ? 'the private key does not belong to the certificate'
      : 'each must be PEM: the certificate (and its chain) and its unencrypted private key';
    throw new ConfigError(`${settings}: not a usable certificate and key (${hint}; OpenSSL: ${reason})`);
  }
  return credentials;
}
