import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import type { HostHealth } from './host-health';
import { checkOutboundUrl, outboundAgent } from './outbound';

/** One `uptime_tests.check_list` entry. */
export interface UptimeCheck {
  url: string;
  origin: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** the status a healthy host answers (gw: `expected_status`, default 200) */
  expectedStatus: number;
  intervalMs: number;
  timeoutMs: number;
  /** consecutive failures before the host is taken out (`failure_trigger_sample_size`) */
  failuresToTrip: number;
}

/** What a HostDown / HostUp event carries about the check (the reference's HostHealthReport). */
export interface HostReport {
  check_url: string;
  host: string;
  method: string;
  response_code: number;
  latency_ms: number;
  is_tcp_error: boolean;
  error?: string;
}

export interface UptimeListener {
  down(report: HostReport): void;
  up(report: HostReport): void;
}

const DEFAULT_INTERVAL_S = 10;

/** Reads `uptime_tests`; an empty list when the API has none. URLs naming link-local addresses are refused. */
export function readUptimeChecks(raw: unknown): UptimeCheck[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const tests = raw as { check_list?: unknown; config?: Record<string, unknown> };
  const config = tests.config ?? {};
  const list = Array.isArray(tests.check_list) ? tests.check_list : [];
  const positive = (value: unknown, fallback: number) => (Number(value) > 0 ? Number(value) : fallback);
  return list
    .filter(
      (entry): entry is Record<string, unknown> =>
        typeof entry === 'object' && entry !== null && typeof (entry as { url?: unknown }).url === 'string',
    )
    .map((entry) => {
      const url = checkOutboundUrl(String(entry.url));
      const headers =
        typeof entry.headers === 'object' && entry.headers !== null
          ? Object.fromEntries(Object.entries(entry.headers).map(([name, value]) => [name, String(value)]))
          : {};
      return {
        url: url.href,
        origin: url.origin,
        method: typeof entry.method === 'string' && entry.method ? entry.method.toUpperCase() : 'GET',
        headers,
        body: typeof entry.body === 'string' ? entry.body : '',
        expectedStatus: positive(entry.expected_status, 200),
        intervalMs: positive(entry.interval ?? config.recheck_wait, DEFAULT_INTERVAL_S) * 1000,
        timeoutMs: positive(entry.timeout, 5) * 1000,
        failuresToTrip: Math.floor(positive(config.failure_trigger_sample_size, 1)),
      };
    });
}

/**
 * Runs an API's uptime tests on this node: each check on its own timer (the next one starts
 * after the previous finished), taking its host out of the API's targets (with
 * `proxy.check_host_against_uptime_tests`, as in the reference gateway) after enough
 * consecutive failures and back in on the first success, with a HostDown / HostUp event each
 * time the state changes. `stop` clears every timer.
 */
export class UptimeChecker {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly failures = new Map<UptimeCheck, number>();
  private readonly downChecks = new Set<UptimeCheck>();
  private stopped = false;

  constructor(
    private readonly checks: UptimeCheck[],
    /** where a host found down is taken out; undefined when only the events are wanted (no `check_host_against_uptime_tests`) */
    private readonly health: HostHealth | undefined,
    private readonly listener: UptimeListener,
  ) {}

  start(): void {
    for (const check of this.checks) this.schedule(check, 0);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** how many timers are pending (tests check nothing is left behind) */
  get pendingTimers(): number {
    return this.timers.size;
  }

  private schedule(check: UptimeCheck, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.run(check).finally(() => this.schedule(check, check.intervalMs));
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async run(check: UptimeCheck): Promise<void> {
    const report = await probe(check);
    if (this.stopped) return;
    const healthy = !report.is_tcp_error && report.response_code === check.expectedStatus;
    if (healthy) {
      this.failures.set(check, 0);
      if (!this.downChecks.delete(check)) return;
      this.health?.up(check.origin);
      this.listener.up(report);
      return;
    }
    const failures = (this.failures.get(check) ?? 0) + 1;
    this.failures.set(check, failures);
    if (failures < check.failuresToTrip || this.downChecks.has(check)) return;
    this.downChecks.add(check);
    this.health?.down(check.origin);
    this.listener.down(report);
  }
}

async function probe(check: UptimeCheck): Promise<HostReport> {
  const started = performance.now();
  const base = { check_url: check.url, host: new URL(check.url).host, method: check.method };
  try {
    const res = await request(check.url, {
      method: check.method as never,
      headers: check.headers,
      body: check.body && check.method !== 'GET' && check.method !== 'HEAD' ? check.body : undefined,
      dispatcher: outboundAgent,
      headersTimeout: check.timeoutMs,
      bodyTimeout: check.timeoutMs,
    });
    await res.body.dump();
    return {
      ...base,
      response_code: res.statusCode,
      latency_ms: Math.round(performance.now() - started),
      is_tcp_error: false,
    };
  } catch (err) {
    return {
      ...base,
      response_code: 0,
      latency_ms: Math.round(performance.now() - started),
      is_tcp_error: true,
      error: (err as Error).message,
    };
  }
}
