import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import type { CertificateMaterial } from '../../../contracts/certs/actions';
import { ConfigError, type GwConfig } from '../../../lib/config/load-config';

type TlsConfig = Pick<GwConfig, 'gatewayTlsPort' | 'gatewayTlsCertFile' | 'gatewayTlsKeyFile' | 'gatewayTlsCertId'>;

/**
 * The HTTPS port beside the HTTP one: the same handler, with client certificates requested but
 * not required (and not checked against a CA), so each API decides (`use_mutual_tls_auth`).
 * Its certificate is set by `loadTlsCredentials` once the node has started.
 */
export function createTlsPort(handle: (req: IncomingMessage, res: ServerResponse) => void, upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): Server {
  const server = createServer({ keepAliveTimeout: 65_000, requestCert: true, rejectUnauthorized: false }, handle);
  server.on('upgrade', upgrade);
  return server;
}

/** The certificate and key of the HTTPS port: from the files, or from the certificate store. */
export async function loadTlsCredentials(config: TlsConfig, fromStore: (id: string) => Promise<CertificateMaterial | undefined>): Promise<{ cert: string; key: string }> {
  const { gatewayTlsCertFile: certFile, gatewayTlsKeyFile: keyFile, gatewayTlsCertId: certId } = config;
  if (certId !== undefined) {
    if (certFile !== undefined || keyFile !== undefined) throw new ConfigError('GW_GATEWAY_TLS_CERT_ID and GW_GATEWAY_TLS_CERT_FILE/GW_GATEWAY_TLS_KEY_FILE exclude each other: name the certificate one way');
    const material = await fromStore(certId);
    if (!material) throw new ConfigError(`GW_GATEWAY_TLS_CERT_ID: no certificate ${certId} in the certificate store`);
    if (!material.key_pem) throw new ConfigError(`GW_GATEWAY_TLS_CERT_ID: certificate ${certId} has no private key in the store`);
    return { cert: material.cert_pem, key: material.key_pem };
  }
  if (certFile === undefined || keyFile === undefined) {
    throw new ConfigError('GW_GATEWAY_TLS_PORT needs GW_GATEWAY_TLS_CERT_FILE and GW_GATEWAY_TLS_KEY_FILE, or GW_GATEWAY_TLS_CERT_ID');
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(`${name}: cannot read ${file}: ${(err as Error).message}`);
    }
  };
  return { cert: read('GW_GATEWAY_TLS_CERT_FILE', certFile), key: read('GW_GATEWAY_TLS_KEY_FILE', keyFile) };
}
