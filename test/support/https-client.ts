import { execFile } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { jsonOrUndefined, readText } from './http';

export interface HttpsResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
  /** the SHA-256 fingerprint of the certificate the server presented (`AA:BB:…`) */
  serverFingerprint: string;
}

export interface HttpsOptions {
  /** PEM of the CA the server certificate must chain to */
  ca: string;
  /** client certificate and key (PEM), for mutual TLS */
  cert?: string;
  key?: string;
  method?: string;
  headers?: Record<string, string>;
  /** ask for a kept-alive connection (the agent is destroyed after the answer) */
  keepAlive?: boolean;
}

/** One request with node's `https` client, on a connection of its own (no agent reuse across certificates). */
export function httpsRequest(url: string, options: HttpsOptions): Promise<HttpsResult> {
  return new Promise((resolve, reject) => {
    const agent = options.keepAlive ? new Agent({ keepAlive: true }) : false;
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        ca: options.ca,
        cert: options.cert,
        key: options.key,
        agent,
      },
      (res) => {
        const serverFingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        readText(res).then((text) => {
          if (agent) agent.destroy();
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: jsonOrUndefined(text),
            serverFingerprint,
          });
        }, reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The same with the `curl` command (`--cacert`, `--cert`, `--key`): status and body. */
export function curl(
  url: string,
  options: { caFile: string; certFile?: string; keyFile?: string; headers?: Record<string, string> },
): Promise<{ status: number; text: string; json: any }> {
  const args = ['-sS', '--max-time', '10', '--cacert', options.caFile, '-w', '\n%{http_code}'];
  if (options.certFile) args.push('--cert', options.certFile);
  if (options.keyFile) args.push('--key', options.keyFile);
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile('curl', args, (err, stdout, stderr) => {
      if (err) return reject(new Error(`curl failed: ${stderr || err.message}`));
      const cut = stdout.lastIndexOf('\n');
      const text = stdout.slice(0, cut);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(stdout.slice(cut + 1)), text, json });
    });
  });
}
