import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually';
import { http } from '../support/http';
import { removeDir } from '../support/node';
import { exited, killProgram, startProgram, type StartedProgram } from '../support/program';
import { RawConnection } from '../support/raw-connection';
import { startUpstream, type Upstream } from '../support/upstream';

function refusesConnections(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error('a new connection was accepted'));
    });
    socket.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' ? resolve() : reject(err)));
  });
}

describe('graceful shutdown (SIGTERM)', function () {
  this.timeout(60_000);
  let cwd: string;
  let upstream: Upstream;
  let program: StartedProgram | undefined;
  const connections: RawConnection[] = [];
  /** upstream answers held back until the test releases them */
  const held: ServerResponse[] = [];
  const release = () => {
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
  };

  const start = async (env: NodeJS.ProcessEnv) => {
    program = await startProgram(cwd, {
      GW_GATEWAY_PORT: '0',
      GW_DASHBOARD_PORT: '0',
      GW_LOG_LEVEL: 'warn',
      GW_SECRET: 'shutdown-secret',
      ...env,
    });
    const created = await http(`${program.gatewayUrl}/gw/apis`, {
      method: 'POST',
      headers: { 'x-gw-authorization': 'shutdown-secret' },
      body: {
        api_id: 'slow',
        name: 'slow',
        use_keyless: true,
        proxy: { listen_path: '/slow/', target_url: upstream.url, strip_listen_path: true },
      },
    });
    assert.equal(created.status, 200, created.text);
    await eventually(async () => assert.equal((await http(`${program!.gatewayUrl}/slow/ping`)).status, 200), 5000);
    return program;
  };

  beforeEach(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'gw-shutdown-'));
    upstream = await startUpstream();
    upstream.respondWith((req, res) => {
      if (req.url.startsWith('/held')) held.push(res);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('quick');
    });
  });
  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.destroy();
    release();
    await killProgram(program?.child);
    program = undefined;
    await upstream.close();
    removeDir(cwd);
  });

  // GW_WORKERS=3: the connections land on different workers, and each worker drains its own.
  for (const workers of ['1', '3']) {
    it(`finishes the requests in flight, serves the ones that arrive on open connections with Connection: close, refuses new connections, and exits 0 (GW_WORKERS=${workers})`, async () => {
      const { gatewayUrl, child, output } = await start({ GW_SHUTDOWN_TIMEOUT: '20', GW_WORKERS: workers });
      const busy = Array.from({ length: 4 }, () => new RawConnection(gatewayUrl!));
      const idle = new RawConnection(gatewayUrl!);
      connections.push(...busy, idle);
      await Promise.all([...busy, idle].map((c) => c.ready));
      idle.send('/slow/quick');
      await eventually(() => assert.equal(idle.responses().length, 1));
      assert.equal(idle.responses()[0].headers.connection, 'keep-alive');
      busy.forEach((c, i) => c.send(`/slow/held/before-${i}`));
      await eventually(() => assert.equal(held.length, 4), 5000);

      const stopping = Date.now();
      child.kill('SIGTERM');
      await eventually(() => refusesConnections(gatewayUrl!), 5000);
      await eventually(() => assert.ok(idle.closed, 'the idle connection is closed'));
      assert.equal(idle.responses().length, 1, 'nothing more was sent on the idle connection');

      busy.forEach((c, i) => c.send(`/slow/held/after-${i}`));
      await eventually(
        () => assert.equal(held.length, 8, 'the requests that arrived during the drain reached the upstream'),
        5000,
      );
      release();

      const code = await exited(child);
      assert.equal(code, 0, output());
      assert.ok(Date.now() - stopping < 20_000, 'exited before GW_SHUTDOWN_TIMEOUT');
      // The services were stopped once, after the drain: nothing failed to stop.
      assert.doesNotMatch(output(), /ERROR|Unable to stop/);
      for (const [i, connection] of busy.entries()) {
        await eventually(() => assert.ok(connection.closed));
        const [before, after, ...more] = connection.responses();
        assert.deepEqual(
          [before?.status, before?.body, after?.status, after?.body],
          [200, 'done', 200, 'done'],
          `connection ${i}: ${JSON.stringify(connection.responses())}`,
        );
        assert.notEqual(before.headers.connection, 'close', 'the connection stays open for the request queued behind');
        assert.equal(after.headers.connection, 'close');
        assert.deepEqual(more, []);
      }
      assert.deepEqual(
        upstream.received
          .map((r) => r.url)
          .filter((url) => url.startsWith('/held'))
          .sort(),
        [0, 1, 2, 3].flatMap((i) => [`/held/after-${i}`, `/held/before-${i}`]).sort(),
      );
    });
  }

  // npm start and a terminal's Ctrl-C: both signals take the same path.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`answers a request in flight with Connection: close when nothing follows it on its connection (${signal})`, async () => {
      const { gatewayUrl, child } = await start({ GW_SHUTDOWN_TIMEOUT: '20' });
      const connection = new RawConnection(gatewayUrl!);
      connections.push(connection);
      await connection.ready;
      connection.send('/slow/held/one');
      await eventually(() => assert.equal(held.length, 1), 5000);
      child.kill(signal);
      await eventually(() => refusesConnections(gatewayUrl!), 5000);
      release();
      assert.equal(await exited(child), 0);
      await eventually(() => assert.ok(connection.closed));
      assert.deepEqual(
        connection.responses().map((r) => [r.status, r.headers.connection, r.body]),
        [[200, 'close', 'done']],
      );
    });
  }

  it('keeps draining when more signals come (Ctrl-C under npm start delivers SIGINT twice)', async () => {
    const { gatewayUrl, child, output } = await start({ GW_SHUTDOWN_TIMEOUT: '20' });
    const connection = new RawConnection(gatewayUrl!);
    connections.push(connection);
    await connection.ready;
    connection.send('/slow/held/one');
    await eventually(() => assert.equal(held.length, 1), 5000);
    child.kill('SIGINT');
    await eventually(() => refusesConnections(gatewayUrl!), 5000);
    child.kill('SIGINT');
    child.kill('SIGTERM');
    await eventually(() => assert.equal(output().match(/received: already stopping/g)?.length, 2, output()), 5000);
    release();
    assert.equal(await exited(child), 0, output());
    await eventually(() => assert.ok(connection.closed));
    assert.deepEqual(
      connection.responses().map((r) => [r.status, r.headers.connection, r.body]),
      [[200, 'close', 'done']],
    );
    assert.doesNotMatch(output(), /ERROR|Unable to stop/);
  });

  it('closes what is still open after GW_SHUTDOWN_TIMEOUT and exits anyway', async () => {
    const { gatewayUrl, child, output } = await start({ GW_SHUTDOWN_TIMEOUT: '1', GW_PROXY_TIMEOUT: '120' });
    const connection = new RawConnection(gatewayUrl!);
    connections.push(connection);
    await connection.ready;
    connection.send('/slow/held/hung');
    await eventually(() => assert.equal(held.length, 1), 5000);
    const stopping = Date.now();
    child.kill('SIGTERM');
    assert.equal(await exited(child), 0, output());
    const took = Date.now() - stopping;
    assert.ok(took >= 900 && took < 8000, `exited after ${took} ms`);
    await eventually(() => assert.ok(connection.closed));
    assert.deepEqual(connection.responses(), [], 'the hung request got no 502, its connection was closed');
    assert.match(output(), /GW_SHUTDOWN_TIMEOUT/);
  });
});
