import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerInstance } from 'moleculer';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';
import { recordsOf, type AnalyticsBatch } from '../../../contracts/analytics/record-batch';
import { COUNTERS, valueOf } from '../../../lib/observability/counters';
import { AnalyticsRecorder, MAX_BATCH } from '../../../services/proxy/analytics/analytics-recorder';
import { countryLookup } from '../../../services/proxy/analytics/geoip';
import { RequestContext } from '../../../services/proxy/pipeline/request-context';
import type { CompiledApi } from '../../../services/proxy/pipeline/compiled-api';

const definition = {
  api_id: 'a1',
  name: 'Orders',
  org_id: 'org1',
  tags: ['api-tag'],
  proxy: { listen_path: '/orders', target_url: 'http://x' },
};

/** A request as the gateway hands it to the recorder: a real context over a stand-in request and response. */
function request(
  path = '/items',
  status = 200,
): { ctx: RequestContext; req: { socket: { remoteAddress: string } | null }; finish(): void } {
  const res = Object.assign(new EventEmitter(), { statusCode: status });
  const req = {
    method: 'GET',
    headers: { 'user-agent': 'ua' },
    socket: { remoteAddress: '81.2.69.160' } as { remoteAddress: string } | null,
  };
  const ctx = new RequestContext(
    req as unknown as IncomingMessage,
    res as unknown as ServerResponse,
    { definition } as unknown as CompiledApi,
    `/orders${path}`,
    '',
    '/orders'.length,
  );
  Object.assign(ctx, {
    session: { alias: 'alice', oauth_client_id: 'client-1', tags: ['key-tag', 'api-tag'] },
    keyHash: 'hash1',
    version: { name: 'Default' },
    upstreamMs: 2.5,
  });
  return { ctx, req, finish: () => res.emit('finish') };
}

/** Hands the request to the recorder as the gateway's request watcher does: at its start, and once its answer has gone. */
function observe(recorder: AnalyticsRecorder, one: ReturnType<typeof request>): void {
  recorder.started(one.ctx);
  one.ctx.res.once('finish', () => recorder.finished(one.ctx));
}

describe('proxy: AnalyticsRecorder', () => {
  const warnings: string[] = [];
  const logger = { warn: (message: string) => warnings.push(message) } as unknown as LoggerInstance;
  let recorder: AnalyticsRecorder | undefined;
  afterEach(async () => {
    await recorder?.stop();
    recorder = undefined;
    warnings.length = 0;
  });

  it('builds the record when the answer has gone, with key, alias, OAuth client, tags and country', async () => {
    const batches: AnalyticsRecordIn[][] = [];
    recorder = new AnalyticsRecorder({
      send: async (batch) => batches.push(recordsOf(batch)),
      logger,
      flushIntervalMs: 60_000,
      bufferSize: 10,
      country: countryLookup({ get: (ip) => (ip === '81.2.69.160' ? { country: { iso_code: 'GB' } } : null) as never }),
    });
    const one = request('/items', 201);
    observe(recorder, one);
    recorder.flush();
    assert.equal(batches.length, 0, 'nothing before the response finished');
    one.finish();
    recorder.flush();
    const [record] = batches[0];
    assert.ok(record.latency >= 0);
    assert.deepEqual(
      { ...record, latency: 0, request_time: 0 },
      {
        api_id: 'a1',
        api_name: 'Orders',
        org_id: 'org1',
        path: '/items',
        raw_path: '/orders/items',
        method: 'GET',
        response_code: 201,
        key_hash: 'hash1',
        alias: 'alice',
        oauth_client_id: 'client-1',
        request_time: 0,
        latency: 0,
        upstream_latency: 2.5,
        ip_address: '81.2.69.160',
        user_agent: 'ua',
        iso_country: 'GB',
        tags: ['key-tag', 'api-tag'],
        track_path: true,
        expire_after: 0,
        refused_before_auth: false,
      },
    );
  });

  it("reads the client's address when the request arrives (the socket may be gone at finish), and never throws from the listener", async () => {
    const batches: AnalyticsRecordIn[][] = [];
    recorder = new AnalyticsRecorder({
      send: async (batch) => batches.push(recordsOf(batch)),
      logger,
      flushIntervalMs: 60_000,
      bufferSize: 10,
    });
    const one = request();
    one.req.socket = { remoteAddress: '198.51.100.7' };
    observe(recorder, one);
    one.req.socket = null;
    one.finish();
    recorder.flush();
    assert.equal(batches[0][0].ip_address, '198.51.100.7');

    const before = valueOf(COUNTERS.analyticsRecordsDropped);
    const broken = request();
    observe(recorder, broken);
    Object.defineProperty(broken.ctx, 'relativePath', {
      get: () => {
        throw new Error('boom');
      },
    });
    assert.doesNotThrow(() => broken.finish());
    assert.equal(valueOf(COUNTERS.analyticsRecordsDropped) - before, 1);
    assert.match(warnings.at(-1)!, /a record could not be built \(boom\)/);
  });

  it('sends at most MAX_BATCH records per batch, and a batch as soon as it is full', async () => {
    const batches: number[] = [];
    recorder = new AnalyticsRecorder({
      send: async (batch) => batches.push(recordsOf(batch).length),
      logger,
      flushIntervalMs: 60_000,
      bufferSize: 5000,
    });
    for (let i = 0; i < MAX_BATCH + 1; i++) {
      const one = request();
      observe(recorder, one);
      one.finish();
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [MAX_BATCH, 1], 'the full batch left without waiting for the interval');
  });

  it('writes a following batch into the values of a full batch the service has stored, never of one in flight or failed', async () => {
    const sent: AnalyticsBatch[] = [];
    const settle: Array<(stored: boolean) => void> = [];
    recorder = new AnalyticsRecorder({
      send: (batch) => {
        sent.push(batch);
        return new Promise<void>((resolve, reject) =>
          settle.push((stored) => (stored ? resolve() : reject(new Error('Request timed out')))),
        );
      },
      logger,
      flushIntervalMs: 60_000,
      bufferSize: 10 * MAX_BATCH,
    });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const fillBatch = async (path: string) => {
      for (let i = 0; i < MAX_BATCH; i++) {
        const one = request(path);
        observe(recorder!, one);
        one.finish();
      }
      await turn();
    };
    await fillBatch('/first');
    await fillBatch('/second');
    assert.notEqual(sent[1].values, sent[0].values, 'the first batch is in flight: its values are left alone');
    settle[0](false);
    await turn();
    await fillBatch('/third');
    assert.ok(
      sent[2].values !== sent[0].values && sent[2].values !== sent[1].values,
      'a batch whose call failed may still be read by a service on this node',
    );
    assert.ok(recordsOf(sent[0]).every((record) => record.path === '/first'));
    settle[1](true);
    await turn();
    // the fourth batch was started when the third left, before the second was stored: the fifth reuses the second's values
    await fillBatch('/fourth');
    await fillBatch('/fifth');
    assert.ok(sent[3].values !== sent[1].values);
    assert.equal(sent[4].values, sent[1].values, "the stored batch's values carry a following one");
    assert.deepEqual(new Set(recordsOf(sent[4]).map((record) => record.path)), new Set(['/fifth']));
    assert.equal(recordsOf(sent[4]).length, MAX_BATCH);
    assert.ok(
      sent.slice(1).every((batch) => batch.values !== sent[0].values),
      "the failed batch's values were never written into again",
    );
    for (const done of settle.slice(2)) done(true);
  });

  it('drops (and counts) records past the buffer, and never sends a failed batch again', async () => {
    const sent: number[] = [];
    let fail = true;
    let hold = true;
    const held: Array<() => void> = [];
    recorder = new AnalyticsRecorder({
      send: (batch) => {
        sent.push(recordsOf(batch).length);
        if (fail) return Promise.reject(new Error('Service analytics is not available'));
        return hold ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve();
      },
      logger,
      flushIntervalMs: 60_000,
      bufferSize: 3,
    });
    const before = valueOf(COUNTERS.analyticsRecordsDropped);
    const finishOne = () => {
      const one = request();
      observe(recorder!, one);
      one.finish();
    };
    finishOne();
    finishOne();
    recorder.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(valueOf(COUNTERS.analyticsRecordsDropped) - before, 2, 'the failed batch is dropped');
    assert.match(
      warnings[0],
      /analytics: dropped 2 record\(s\): analytics service unreachable \(Service analytics is not available\)/,
    );

    fail = false;
    recorder.flush();
    assert.deepEqual(sent, [2], 'nothing to resend');
    finishOne();
    finishOne();
    recorder.flush();
    finishOne();
    finishOne();
    assert.equal(valueOf(COUNTERS.analyticsRecordsDropped) - before, 3, '2 in flight + 1 held fill the buffer of 3');
    assert.equal(warnings.length, 1, 'warnings are rate-limited');
    hold = false;
    held.forEach((resolve) => resolve());
    await recorder.stop();
    assert.deepEqual(sent, [2, 2, 1]);
  });
  it('builds no record while no analytics service is known, counts each finished request as dropped, and records again once one is', async () => {
    const batches: AnalyticsRecordIn[][] = [];
    const lookedUp: string[] = [];
    let known = false;
    recorder = new AnalyticsRecorder({
      send: async (batch) => batches.push(recordsOf(batch)),
      logger,
      flushIntervalMs: 60_000,
      bufferSize: 10,
      country: (ip) => (lookedUp.push(ip), 'GB'),
      analyticsKnown: () => known,
    });
    recorder.start();
    const before = valueOf(COUNTERS.analyticsRecordsDropped);
    const unfinished = request();
    observe(recorder, unfinished);
    for (let i = 0; i < 3; i++) {
      const one = request();
      observe(recorder, one);
      one.finish();
    }
    recorder.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([batches, lookedUp], [[], []], 'no record built, no country looked up, nothing sent');
    assert.equal(
      valueOf(COUNTERS.analyticsRecordsDropped) - before,
      3,
      'the 3 finished requests, not the one still open',
    );
    assert.match(warnings[0], /analytics: dropped 3 record\(s\): no node of the cluster runs the analytics service/);

    known = true;
    recorder.refreshAvailability();
    unfinished.finish();
    recorder.flush();
    assert.deepEqual(
      batches.map((batch) => batch.map((record) => record.iso_country)),
      [['GB']],
    );
    assert.equal(valueOf(COUNTERS.analyticsRecordsDropped) - before, 3);
  });

  it('counts at stop() the requests it made no record for since the last flush', async () => {
    recorder = new AnalyticsRecorder({
      send: async () => undefined,
      logger,
      flushIntervalMs: 60_000,
      bufferSize: 10,
      analyticsKnown: () => false,
    });
    recorder.start();
    const before = valueOf(COUNTERS.analyticsRecordsDropped);
    const one = request();
    observe(recorder, one);
    one.finish();
    await recorder.stop();
    recorder = undefined;
    assert.equal(valueOf(COUNTERS.analyticsRecordsDropped) - before, 1);
  });
});

describe('proxy: analytics records of requests refused before authentication', () => {
  /** Whether the record of a request answered `status` says it was refused before authentication. */
  const refusedBeforeAuth = async (status: number, extra: object, pastAuthentication: boolean) => {
    const batches: AnalyticsRecordIn[][] = [];
    const send = async (batch: AnalyticsBatch) => batches.push(recordsOf(batch));
    const logger = {} as LoggerInstance;
    const recorder = new AnalyticsRecorder({ send, logger, flushIntervalMs: 60_000, bufferSize: 10 });
    const one = request('/random', status);
    (one.ctx.api as { definition: unknown }).definition = { ...definition, ...extra };
    Object.assign(one.ctx, { session: undefined, keyHash: undefined, pastAuthentication });
    observe(recorder, one);
    one.finish();
    await recorder.stop();
    return batches[0][0].refused_before_auth;
  };

  it('marks an error answered before authentication let the request through, on a keyed API', async () => {
    assert.equal(await refusedBeforeAuth(401, {}, false), true);
    assert.equal(await refusedBeforeAuth(403, {}, false), true);
    assert.equal(await refusedBeforeAuth(404, {}, false), true);
  });

  it('does not mark answers after authentication, successes, nor keyless APIs', async () => {
    assert.equal(await refusedBeforeAuth(404, {}, true), false);
    assert.equal(await refusedBeforeAuth(429, {}, true), false);
    assert.equal(await refusedBeforeAuth(204, {}, false), false);
    assert.equal(await refusedBeforeAuth(403, { use_keyless: true }, false), false);
  });
});

describe('proxy: analytics tracking rules', () => {
  const batchOf = async (extra: Record<string, unknown>, paths: string[]) => {
    const batches: AnalyticsRecordIn[][] = [];
    const recorder = new AnalyticsRecorder({
      send: async (batch) => batches.push(recordsOf(batch)),
      logger: {} as LoggerInstance,
      flushIntervalMs: 60_000,
      bufferSize: 100,
    });
    for (const path of paths) {
      const one = request(path);
      (one.ctx.api as { definition: unknown }).definition = { ...definition, ...extra };
      observe(recorder, one);
      one.finish();
    }
    await recorder.stop();
    return batches.flat().map((record) => [record.path, record.track_path, record.expire_after]);
  };
  const version = (extended: Record<string, unknown>) => ({
    version_data: { versions: { Default: { name: 'Default', use_extended_paths: true, extended_paths: extended } } },
  });

  it('records nothing for do_not_track', async () => {
    assert.deepEqual(await batchOf({ do_not_track: true }, ['/a']), []);
  });

  it('skips do_not_track_endpoint(s) and marks only track_endpoint(s) as tracked', async () => {
    assert.deepEqual(
      await batchOf(
        version({
          do_not_track_endpoint: [{ path: '/secret', method: 'GET' }],
          track_endpoints: [{ path: '/users/{id}', method: 'GET' }],
        }),
        ['/secret', '/users/1', '/other'],
      ),
      [
        ['/users/1', true, 0],
        ['/other', false, 0],
      ],
    );
    assert.deepEqual(
      await batchOf(version({ do_not_track_endpoints: [{ path: '/secret', method: 'POST' }] }), ['/secret']),
      [['/secret', true, 0]],
    );
  });

  it('carries expire_analytics_after', async () => {
    assert.deepEqual(await batchOf({ expire_analytics_after: 30 }, ['/a']), [['/a', true, 30]]);
  });
});

describe('proxy: GeoIP country lookup', () => {
  it('answers the country code, the registered country without one, and "" for unknown or malformed addresses', () => {
    const lookup = countryLookup({
      get: (ip) => {
        if (ip === 'bad') throw new Error('not an IP');
        if (ip === '1.2.3.4') return { country: { iso_code: 'DE' } } as never;
        if (ip === '5.6.7.8') return { registered_country: { iso_code: 'FR' } } as never;
        return null;
      },
    });
    assert.equal(lookup('1.2.3.4'), 'DE');
    assert.equal(lookup('::ffff:1.2.3.4'), 'DE');
    assert.equal(lookup('5.6.7.8'), 'FR');
    assert.equal(lookup('9.9.9.9'), '');
    assert.equal(lookup('bad'), '');
  });

  it('asks the database once per address (answers, unknown and malformed alike) and remembers at most 10,000', () => {
    const asked: string[] = [];
    const lookup = countryLookup({
      get: (ip) => {
        asked.push(ip);
        if (ip === 'bad') throw new Error('not an IP');
        return ip === '1.2.3.4' ? ({ country: { iso_code: 'DE' } } as never) : null;
      },
    });
    for (let i = 0; i < 3; i++) assert.deepEqual([lookup('1.2.3.4'), lookup('9.9.9.9'), lookup('bad')], ['DE', '', '']);
    assert.deepEqual(asked, ['1.2.3.4', '9.9.9.9', 'bad']);
    for (let i = 0; i < 10_000; i++) lookup(`10.0.${i >> 8}.${i & 255}`);
    asked.length = 0;
    assert.equal(lookup('1.2.3.4'), 'DE');
    assert.deepEqual(asked, ['1.2.3.4'], 'forgotten once 10,000 other addresses came');
  });
});
