import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Issued {
  /** PEM */
  cert: string;
  /** PEM, unencrypted */
  key: string;
  certFile: string;
  keyFile: string;
}

export interface TestPki {
  dir: string;
  ca: Issued;
  /** A certificate signed by the CA (valid from an hour ago for a day unless dates are given). */
  issue(
    commonName: string,
    options?: { dns?: string[]; ips?: string[]; notBefore?: Date; notAfter?: Date; keyType?: 'ec' | 'rsa' },
  ): Issued;
  /** A self-signed certificate with the whole distinguished name given (`/C=GB/O=Acme/CN=…`). */
  selfSigned(subject: string): Issued;
  cleanup(): void;
}

const CA_CONFIG = `[ ca ]
default_ca = CA_default
[ CA_default ]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = copy
[ policy_any ]
commonName = supplied
`;

/** `YYYYMMDDHHMMSSZ`, the form `openssl ca -startdate/-enddate` takes. */
function asn1Time(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * A throw-away certificate authority made with the `openssl` command at run time: a CA, and
 * certificates it signs (server certificates with subject alternative names, client certificates,
 * expired ones). Everything lives in a temporary folder that `cleanup` removes.
 */
export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'gw-pki-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  writeFileSync(join(dir, 'ca.cnf'), CA_CONFIG);
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  run(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-subj',
    '/CN=gw test CA',
    '-days',
    '2',
  );
  const read = (name: string): Issued => ({
    cert: readFileSync(join(dir, `${name}.pem`), 'utf8'),
    key: readFileSync(join(dir, `${name}.key`), 'utf8'),
    certFile: join(dir, `${name}.pem`),
    keyFile: join(dir, `${name}.key`),
  });
  let count = 0;
  return {
    dir,
    ca: read('ca'),
    issue(commonName, options = {}) {
      const name = `cert${++count}`;
      const san = [...(options.dns ?? []).map((d) => `DNS:${d}`), ...(options.ips ?? []).map((ip) => `IP:${ip}`)];
      const keyArgs =
        options.keyType === 'rsa' ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
      run(
        'req',
        ...keyArgs,
        '-nodes',
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.csr`,
        '-subj',
        `/CN=${commonName}`,
        ...(san.length > 0 ? ['-addext', `subjectAltName=${san.join(',')}`] : []),
      );
      const notBefore = options.notBefore ?? new Date(Date.now() - 3600_000);
      const notAfter = options.notAfter ?? new Date(Date.now() + 86400_000);
      run(
        'ca',
        '-batch',
        '-config',
        'ca.cnf',
        '-cert',
        'ca.pem',
        '-keyfile',
        'ca.key',
        '-in',
        `${name}.csr`,
        '-out',
        `${name}.pem`,
        '-notext',
        '-startdate',
        asn1Time(notBefore),
        '-enddate',
        asn1Time(notAfter),
      );
      return read(name);
    },
    selfSigned(subject) {
      const name = `self${++count}`;
      const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`];
      run('req', '-x509', ...key, '-out', `${name}.pem`, '-subj', subject, '-days', '2');
      return read(name);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
