/** `extended_paths.circuit_breakers` entry settings. */
export interface BreakerSettings {
  path: string;
  method: string;
  /** the share of failures (0–1) over `samples` requests that trips the breaker */
  thresholdPercent: number;
  samples: number;
  returnToServiceAfterMs: number;
  disableHalfOpenState: boolean;
}

/** the reference gateway's `CircuitEvent` numbers in a BreakerTriggered event */
export const BREAKER_TRIPPED = 0;
export const BREAKER_RESET = 1;

export interface BreakerListener {
  tripped(settings: BreakerSettings, failureRate: number): void;
  reset(settings: BreakerSettings): void;
}

const PROBE_PATIENCE_MS = 30_000;

type State = 'closed' | 'open' | 'half-open';

/**
 * One endpoint's breaker on this node. Closed, it keeps the outcomes of the last `samples`
 * upstream requests (a 5xx or no answer is a failure) and trips when that many have been seen
 * and the share of failures reaches the threshold. Open, requests are refused without calling
 * the upstream for `return_to_service_after` seconds; then one request is let through as a probe
 * (half-open) and its outcome resets or trips the breaker again. With
 * `disable_half_open_state`, the breaker simply closes when the time is up.
 */
export class CircuitBreaker {
  private state: State = 'closed';
  private readonly outcomes: boolean[] = [];
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  private probeStartedAt = 0;
  private resetTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly settings: BreakerSettings,
    private readonly listener: BreakerListener,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a request may go upstream now; a true answer in half-open state makes it the probe. */
  allow(): boolean {
    if (this.state === 'closed') return true;
    if (this.state === 'open') {
      if (this.now() - this.openedAt < this.settings.returnToServiceAfterMs) return false;
      if (this.settings.disableHalfOpenState) {
        this.close();
        return true;
      }
      this.state = 'half-open';
    }
    // One probe at a time; a probe whose outcome never came (its client left) is replaced after a while.
    if (this.probing && this.now() - this.probeStartedAt < PROBE_PATIENCE_MS) return false;
    this.probing = true;
    this.probeStartedAt = this.now();
    return true;
  }

  /** The outcome of a request `allow` let through. */
  record(failed: boolean): void {
    if (this.state === 'half-open') {
      this.probing = false;
      if (failed) this.trip(1);
      else this.close();
      return;
    }
    if (this.state !== 'closed') return;
    this.outcomes.push(failed);
    if (failed) this.failures++;
    if (this.outcomes.length > this.settings.samples && this.outcomes.shift()) this.failures--;
    const rate = this.failures / this.outcomes.length;
    if (this.outcomes.length >= this.settings.samples && rate >= this.settings.thresholdPercent) this.trip(rate);
  }

  /** stops the reset timer (the API was removed or replaced) */
  dispose(): void {
    clearTimeout(this.resetTimer);
  }

  private trip(rate: number): void {
    this.state = 'open';
    this.openedAt = this.now();
    this.probing = false;
    this.outcomes.length = 0;
    this.failures = 0;
    this.listener.tripped(this.settings, rate);
    if (this.settings.disableHalfOpenState) {
      this.resetTimer = setTimeout(() => this.close(), this.settings.returnToServiceAfterMs);
      this.resetTimer.unref();
    }
  }

  private close(): void {
    clearTimeout(this.resetTimer);
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.probing = false;
    this.listener.reset(this.settings);
  }
}

/** Reads one entry; undefined when it can not work (no samples, threshold out of range). */
export function readBreaker(entry: Record<string, unknown>): BreakerSettings | undefined {
  let threshold = Number(entry.threshold_percent);
  // The reference takes a ratio (0.5); a percentage (50) is read as one too.
  if (threshold > 1 && threshold <= 100) threshold /= 100;
  const samples = Math.floor(Number(entry.samples));
  if (!(threshold > 0 && threshold <= 1) || !(samples > 0)) return undefined;
  const after = Number(entry.return_to_service_after);
  return {
    path: typeof entry.path === 'string' ? entry.path : '/',
    method: typeof entry.method === 'string' ? entry.method.toUpperCase() : '',
    thresholdPercent: threshold,
    samples,
    returnToServiceAfterMs: (after > 0 ? after : 0) * 1000,
    disableHalfOpenState: entry.disable_half_open_state === true,
  };
}
