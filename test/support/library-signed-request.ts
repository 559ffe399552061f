import { request as httpRequest, type ClientRequest } from 'node:http';
import { jsonOrUndefined, readText, type HttpResult } from './http';

// The client library an integrator would use; it has no type declarations of its own.
const httpSignature = require('http-signature') as {
  sign(request: ClientRequest, options: { keyId: string; key: string; algorithm: string; headers: string[] }): boolean;
};

export interface LibrarySignOptions {
  keyId: string;
  /** the HMAC secret, or a PEM private key for rsa-sha256 */
  key: string;
  algorithm: string;
  /** the headers signed; default `(request-target)` and `date` */
  headers?: string[];
  /** more request headers, sent as they are */
  extra?: Record<string, string>;
}

/** A GET signed by the npm `http-signature` client on a node http.ClientRequest, read like test/support/http.ts reads answers. */
export function librarySignedGet(url: string, options: LibrarySignOptions): Promise<HttpResult> {
  return new Promise<HttpResult>((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers: options.extra ?? {} }, (res) => {
      readText(res).then(
        (text) =>
          resolve({
            status: res.statusCode ?? 0,
            headers: new Headers(res.headers as Record<string, string>),
            text,
            json: jsonOrUndefined(text),
          }),
        reject,
      );
    });
    req.on('error', reject);
    httpSignature.sign(req, {
      keyId: options.keyId,
      key: options.key,
      algorithm: options.algorithm,
      headers: options.headers ?? ['(request-target)', 'date'],
    });
    req.end();
  });
}
