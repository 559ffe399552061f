import { performance } from 'node:perf_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import type { LoggerInstance } from 'moleculer';
import type { AnalyticsRecordIn } from '../../../contracts/analytics/actions';
import { AnalyticsBatchBuilder, RECORD_WIDTH, type AnalyticsBatch } from '../../../contracts/analytics/record-batch';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { COUNTERS, count } from '../../../lib/observability/counters';
import { answeredStatus } from '../pipeline/grpc/grpc-status';
import type { RequestContext } from '../pipeline/request-context';
import type { CountryLookup } from './geoip';
import { NOT_TRACKED, compileTracking, type ApiTracking } from './track-rules';

/** A batch leaves at this many records even before the flush interval. */
export const MAX_BATCH = 1000;
/** Dropped records are logged at most this often (with the count since the last warning). */
const WARN_EVERY_MS = 10_000;

export interface RecorderOptions {
  /** sends one batch to the analytics service (once: it is never retried) */
  send(batch: AnalyticsBatch): Promise<unknown>;
  logger: LoggerInstance;
  /** ms between flushes */
  flushIntervalMs: number;
  /** records held (waiting and in flight) before new ones are dropped */
  bufferSize: number;
  /** the client's country, when a GeoIP database is configured */
  country?: CountryLookup;
  /**
   * whether some node of the cluster runs the analytics service (the node's service registry);
   * read at start, at every flush and when the registry changes (refreshAvailability)
   */
  analyticsKnown?(): boolean;
}

/**
 * Builds one analytics record per proxied request when its answer has gone, and hands records
 * to the analytics service in batches (every flush interval, or at MAX_BATCH records). Nothing
 * on the request path waits: the gateway's request watcher calls started() and finished() from
 * the one listener it has per request anyway. A record is written straight into the batch's
 * columns (record-batch.ts), never held as an object of its own: held for up to a second,
 * objects would outlive young-generation collections and cost more than the records themselves.
 * Delivery is at most once: a batch is sent once, and one that fails (no analytics service,
 * timeout) is dropped and counted (`analytics_records_dropped`), as are records that find the
 * buffer full.
 */
export class AnalyticsRecorder {
  /** the batch records are added to */
  private readonly building = new AnalyticsBatchBuilder(MAX_BATCH);
  /** full batches (MAX_BATCH records) waiting for the next flush */
  private full: AnalyticsBatch[] = [];
  /** records held in `full` and in batches sent but not yet answered */
  private held = 0;
  /** the one object every record is written through (its values are copied into the batch) */
  private readonly scratch: AnalyticsRecordIn = {
    api_id: '',
    api_name: '',
    org_id: '',
    path: '',
    raw_path: '',
    method: '',
    response_code: 0,
    key_hash: '',
    alias: '',
    oauth_client_id: '',
    request_time: 0,
    latency: 0,
    upstream_latency: 0,
    ip_address: '',
    user_agent: '',
    iso_country: '',
    tags: [],
    track_path: false,
    expire_after: 0,
    refused_before_auth: false,
  };
  private timer: NodeJS.Timeout | undefined;
  private flushQueued = false;
  private readonly tracking = new WeakMap<ApiDefinition, ApiTracking>();
  private droppedSinceWarning = 0;
  private lastWarning = 0;
  private readonly sending = new Set<Promise<void>>();
  /** false while no node of the cluster runs the analytics service (refreshAvailability) */
  private analyticsPresent = true;
  /** records not made while the analytics service was absent, not yet added to the counter */
  private unmade = 0;

  constructor(private readonly options: RecorderOptions) {}

  start(): void {
    this.refreshAvailability();
    this.timer = setInterval(() => this.flush(), this.options.flushIntervalMs);
    this.timer.unref();
  }

  /**
   * Reads again whether any node runs the analytics service (called when the node's service
   * registry changes, and at every flush in case a change went unseen). While none does, a
   * tracked request builds no record and looks no country up: it is counted as dropped, as its
   * record would have been when its batch failed to send.
   */
  refreshAvailability(): void {
    if (this.options.analyticsKnown) this.analyticsPresent = this.options.analyticsKnown();
  }

  /** Sends what is held and waits for the batches in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
    await Promise.all(this.sending);
  }

  /** Called once per request, when the chain starts (the gateway's request watcher). */
  started(ctx: RequestContext): void {
    // The client's address is read now, and kept by the context: by the time the answer has
    // gone the socket may be detached from the request.
    if (this.trackingOf(ctx) !== NOT_TRACKED) void ctx.clientIp;
  }

  /**
   * Called once the request's answer has gone (the gateway's request watcher, which has one
   * `finish` listener per request for metrics and analytics together); never throws.
   */
  finished(ctx: RequestContext): void {
    try {
      const tracking = this.trackingOf(ctx);
      if (tracking !== NOT_TRACKED) this.add(ctx, tracking);
    } catch (err) {
      // A listener that throws would take the gateway down: analytics must never do that.
      this.drop(1, `a record could not be built (${(err as Error)?.message ?? err})`);
    }
  }

  private trackingOf(ctx: RequestContext): ApiTracking {
    const definition = ctx.api.definition;
    let tracking = this.tracking.get(definition);
    if (!tracking) {
      tracking = compileTracking(definition);
      this.tracking.set(definition, tracking);
    }
    return tracking;
  }

  private add(ctx: RequestContext, tracking: ApiTracking): void {
    const method = ctx.req.method ?? 'GET';
    const trackPath = tracking.decide(ctx.version?.name, method, ctx.relativePath);
    if (trackPath === undefined) return;
    if (!this.analyticsPresent) return this.dropUnmade();
    if (this.held + this.building.count >= this.options.bufferSize) return this.drop(1, 'buffer full');
    this.building.add(this.record(ctx, tracking, trackPath, method));
    if (this.building.count >= MAX_BATCH) {
      this.full.push(this.building.take());
      this.held += MAX_BATCH;
      if (!this.flushQueued) {
        this.flushQueued = true;
        setImmediate(() => this.flush());
      }
    }
  }

  /** The request's record, in `scratch` (overwritten by the next one). */
  private record(ctx: RequestContext, tracking: ApiTracking, trackPath: boolean, method: string): AnalyticsRecordIn {
    const ip = ctx.clientIp;
    const { definition } = ctx.api;
    const session = ctx.session ?? {};
    const userAgent = ctx.req.headers['user-agent'];
    const record = this.scratch;
    record.api_id = definition.api_id;
    record.api_name = definition.name;
    record.org_id = definition.org_id ?? '';
    record.path = ctx.relativePath;
    record.raw_path = ctx.path;
    record.method = method;
    record.response_code = answeredStatus(ctx.res);
    record.key_hash = ctx.keyHash ?? '';
    record.alias = typeof session.alias === 'string' ? session.alias : '';
    record.oauth_client_id = typeof session.oauth_client_id === 'string' ? session.oauth_client_id : '';
    record.request_time = Math.round(performance.timeOrigin + ctx.startedAt);
    record.latency = performance.now() - ctx.startedAt;
    record.upstream_latency = ctx.upstreamMs ?? 0;
    record.ip_address = ip;
    record.user_agent = typeof userAgent === 'string' ? userAgent : '';
    record.iso_country = this.options.country ? this.options.country(ip) : '';
    record.tags = tagsOf(session.tags, (definition as unknown as { tags?: unknown }).tags);
    // an MCP call's tool, resource or prompt, where analytics can group by it
    if (ctx.mcpPrimitive !== undefined) record.tags = [...record.tags, `mcp_primitive:${ctx.mcpPrimitive}`];
    if (tracking.tagHeaders.length > 0) record.tags = withHeaderTags(record.tags, tracking.tagHeaders, ctx.req.headers);
    // the request's trace, findable from its record (the reference gateway's `trace-id-` tag)
    if (ctx.trace) record.tags = [...record.tags, `trace-id-${ctx.trace.traceId}`];
    record.track_path = trackPath;
    record.expire_after = tracking.expireAfter;
    record.refused_before_auth = tracking.authenticates && !ctx.pastAuthentication && record.response_code >= 400;
    return record;
  }

  /** Sends the full batches and the one being built. */
  flush(): void {
    this.flushQueued = false;
    this.countUnmade();
    this.refreshAvailability();
    if (this.building.count > 0) {
      this.held += this.building.count;
      this.full.push(this.building.take());
    }
    const batches = this.full;
    this.full = [];
    for (const batch of batches) {
      const records = batch.values.length / RECORD_WIDTH;
      const sent: Promise<void> = this.options
        .send(batch)
        .then(
          // Stored (or, for a service on another node, received): its values can take the next records.
          () => this.building.recycle(batch.values),
          // Not recycled: a call that timed out may still be read by a service on this node.
          (err: unknown) => this.drop(records, `analytics service unreachable (${(err as Error)?.message ?? err})`),
        )
        .finally(() => {
          this.held -= records;
          this.sending.delete(sent);
        });
      this.sending.add(sent);
    }
  }

  /**
   * A record not made as no analytics service is known. Counted at the next flush (within the
   * flush interval; `stop()` flushes) rather than here: adding to the labelled counter costs
   * about as much as the record it stands for.
   */
  private dropUnmade(): void {
    this.unmade += 1;
    if (this.unmade >= MAX_BATCH) this.countUnmade();
  }

  private countUnmade(): void {
    if (this.unmade === 0) return;
    const records = this.unmade;
    this.unmade = 0;
    this.drop(records, 'no node of the cluster runs the analytics service');
  }

  private drop(records: number, why: string): void {
    count(COUNTERS.analyticsRecordsDropped, {}, records);
    this.droppedSinceWarning += records;
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.options.logger.warn(`analytics: dropped ${this.droppedSinceWarning} record(s): ${why}`);
    this.droppedSinceWarning = 0;
    this.lastWarning = now;
  }
}

const NO_TAGS: string[] = [];

function tagsOf(sessionTags: unknown, apiTags: unknown): string[] {
  const fromSession = Array.isArray(sessionTags) && sessionTags.length > 0;
  const fromApi = Array.isArray(apiTags) && apiTags.length > 0;
  if (!fromSession && !fromApi) return NO_TAGS;
  const tags = new Set<string>();
  for (const list of [sessionTags, apiTags])
    if (Array.isArray(list)) for (const tag of list) if (typeof tag === 'string') tags.add(tag);
  return [...tags];
}

/** A client picks these values: one is cut at 256 characters so a record's tags stay small. */
const MAX_HEADER_TAG_VALUE = 256;

/** `<header>-<value>` for each tag header the request carries (`tag_headers`). */
function withHeaderTags(tags: string[], names: readonly string[], headers: IncomingHttpHeaders): string[] {
  let out = tags;
  for (const name of names) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text === undefined || text === '') continue;
    if (out === tags) out = [...tags];
    out.push(`${name}-${text.slice(0, MAX_HEADER_TAG_VALUE)}`);
  }
  return out;
}
