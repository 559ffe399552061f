import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPki, type TestPki } from '../support/certificates';
import { removeDir } from '../support/node';
import { runToExit } from '../support/program';

/** A line of a stack trace. */
const STACK_LINE = /^\s{4}at /;

/** What each port setting says when another process holds the port. */
const inUse = (setting: string, port: number) =>
  `gw failed to start: ${setting} ${port} is in use (another gw running? stop it or choose another port)`;
const NO_DATABASE =
  'gw failed to start: GW_DATABASE_URL: nothing answers at 127.0.0.1:1 ' +
  '(is the database server running? check the host and port)';

const TLS_FILES = /^gw failed to start: GW_GATEWAY_TLS_CERT_FILE and GW_GATEWAY_TLS_KEY_FILE: /;

function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

/**
 * What an operator sees when `npm start` can not start (app/main.ts): the process exits non-zero,
 * its last line names the setting and says what to do, and at the default log level nothing
 * before it is a stack trace or a wall of logs.
 */
describe('a start that fails says why in one line', function () {
  this.timeout(60_000);
  let cwd: string;
  let taken: { server: Server; port: number };
  let pki: TestPki;
  before(async () => {
    taken = await listening();
    pki = createTestPki();
  });
  after(() => {
    taken.server.close();
    pki.cleanup();
  });
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'gw-start-failure-'));
  });
  afterEach(() => removeDir(cwd));

  const ports = { GW_GATEWAY_PORT: '0', GW_DASHBOARD_PORT: '0' };

  async function failsWith(env: NodeJS.ProcessEnv, lastLine: string | RegExp, maxLines = 1) {
    const { code, output } = await runToExit(cwd, { ...ports, ...env });
    const lines = output.trimEnd().split('\n');
    assert.equal(code, 1, output);
    if (typeof lastLine === 'string') assert.equal(lines.at(-1), lastLine, output);
    else assert.match(lines.at(-1)!, lastLine, output);
    const stack = lines.filter((line) => STACK_LINE.test(line));
    assert.deepEqual(stack, [], 'no stack trace at the default log level');
    assert.ok(lines.length <= maxLines, `at most ${maxLines} lines, got:\n${output}`);
    return lines;
  }

  it('GW_DASHBOARD_PORT in use', async () => {
    await failsWith({ GW_DASHBOARD_PORT: String(taken.port) }, inUse('GW_DASHBOARD_PORT', taken.port));
  });

  it('GW_GATEWAY_PORT in use', async () => {
    await failsWith({ GW_GATEWAY_PORT: String(taken.port) }, inUse('GW_GATEWAY_PORT', taken.port));
  });

  it('GW_GATEWAY_TLS_PORT in use', async () => {
    const server = pki.issue('localhost', { dns: ['localhost'] });
    const tls = { GW_GATEWAY_TLS_CERT_FILE: server.certFile, GW_GATEWAY_TLS_KEY_FILE: server.keyFile };
    await failsWith({ GW_GATEWAY_TLS_PORT: String(taken.port), ...tls }, inUse('GW_GATEWAY_TLS_PORT', taken.port));
  });

  it('GW_HOST that is no address of this machine', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of a test machine.
    await failsWith(
      { GW_HOST: '192.0.2.1' },
      'gw failed to start: GW_HOST 192.0.2.1 is not an address of this machine ' +
        '(use one of its addresses, or 0.0.0.0 for all)',
    );
  });

  it('GW_DATABASE_URL where no database answers, without its password', async () => {
    const lines = await failsWith({ GW_DATABASE_URL: 'mysql://gw:never-printed@127.0.0.1:1/gw' }, NO_DATABASE);
    assert.doesNotMatch(lines.join('\n'), /never-printed/);
  });

  it('GW_DATABASE_URL naming a database the server does not have (GW_TEST_MYSQL)', async function () {
    const server = process.env.GW_TEST_MYSQL;
    if (!server) return this.skip();
    const url = new URL(server);
    url.pathname = '/gw_no_such_database';
    await failsWith(
      { GW_DATABASE_URL: url.toString() },
      "gw failed to start: GW_DATABASE_URL: unknown database 'gw_no_such_database' " +
        '(create it, or name an existing database in the URL)',
    );
  });

  it('a sqlite: file in a folder that does not exist, which is not created', async () => {
    const folder = join(cwd, 'no-such-folder');
    await failsWith(
      { GW_DATABASE_URL: `sqlite:${join(folder, 'gw.sqlite')}` },
      `gw failed to start: GW_DATABASE_URL: folder ${folder} does not exist ` +
        '(create it, or name a file in an existing folder)',
    );
    assert.equal(existsSync(folder), false);
  });

  it('GW_TRANSPORTER where no server answers (Moleculer would retry for ever)', async () => {
    await failsWith(
      { GW_TRANSPORTER: 'nats://127.0.0.1:1' },
      'gw failed to start: GW_TRANSPORTER: nothing answers at 127.0.0.1:1 ' +
        '(is the NATS server running? check the host and port)',
    );
  });

  it('GW_TRANSPORTER that Moleculer does not know', async () => {
    const unknown = /^gw failed to start: GW_TRANSPORTER: unknown transporter scheme nast:\/\/ \(/;
    await failsWith({ GW_TRANSPORTER: 'nast://127.0.0.1:4222' }, unknown);
  });

  it('a TLS key that does not belong to the certificate', async () => {
    const [one, other] = [pki.issue('localhost'), pki.issue('localhost')];
    // Moleculer's start-up lines come first: the files are read as the proxy service is created.
    const files = { GW_GATEWAY_TLS_CERT_FILE: one.certFile, GW_GATEWAY_TLS_KEY_FILE: other.keyFile };
    const lines = await failsWith({ GW_GATEWAY_TLS_PORT: '0', ...files }, TLS_FILES, 12);
    assert.match(
      lines.at(-1)!,
      /not a usable certificate and key \(the private key does not belong to the certificate;/,
    );
  });

  it('a TLS certificate file that is not PEM', async () => {
    const notPem = join(cwd, 'cert.pem');
    writeFileSync(notPem, 'not a certificate\n');
    const key = pki.issue('localhost').keyFile;
    const files = { GW_GATEWAY_TLS_CERT_FILE: notPem, GW_GATEWAY_TLS_KEY_FILE: key };
    const lines = await failsWith({ GW_GATEWAY_TLS_PORT: '0', ...files }, TLS_FILES, 12);
    assert.match(lines.at(-1)!, /not a usable certificate and key \(each must be PEM/);
  });

  it("a failure after the services started (no stack in Moleculer's own log of it either)", async () => {
    const lines = await failsWith(
      { GW_GATEWAY_TLS_PORT: '0', GW_GATEWAY_TLS_CERT_ID: 'no-such-certificate' },
      'gw failed to start: GW_GATEWAY_TLS_CERT_ID: no certificate no-such-certificate in the certificate store',
      100,
    );
    const logged = lines.some((line) => /ERROR\s+BROKER: Unable to start all services/.test(line));
    assert.ok(logged, 'Moleculer logs the failure, in one line');
  });

  it('an invalid value', async () => {
    await failsWith(
      { GW_LOG_LEVEL: 'loud' },
      "gw failed to start: invalid configuration: GW_LOG_LEVEL: 'loud' is not one of " +
        'fatal, error, warn, info, debug, trace, silent',
    );
  });

  it('GW_DATA_DIR where the generated secrets can not be kept', async () => {
    const file = join(cwd, 'a-file');
    writeFileSync(file, '');
    const cannotKeep = /^gw failed to start: GW_DATA_DIR: cannot keep the generated secrets in /;
    const lines = await failsWith({ GW_DATA_DIR: join(file, 'data') }, cannotKeep);
    assert.match(lines.at(-1)!, /make the folder writable by gw, or set GW_SECRET and GW_ADMIN_SECRET\)$/);
  });

  it('prints the stack before the line at GW_LOG_LEVEL=debug', async () => {
    const env = { ...ports, GW_LOG_LEVEL: 'debug', GW_DATABASE_URL: 'mysql://gw@127.0.0.1:1/gw' };
    const { code, output } = await runToExit(cwd, env);
    const lines = output.trimEnd().split('\n');
    assert.equal(code, 1);
    assert.match(output, /ECONNREFUSED[^\n]*\n\s{4}at /, 'the stack of the driver error');
    assert.equal(lines.at(-1), NO_DATABASE);
  });
});
