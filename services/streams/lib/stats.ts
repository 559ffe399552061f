import type { ConnectorStats } from '../../../contracts/streams/actions';

/** The counters of one connector; the stream's stats and /metrics read them. */
export class ConnectorCounters {
  received = 0;
  sent = 0;
  errors = 0;
  connectionAttempts = 0;
  connectionFailures = 0;
  /** the newest failure, with the number of the message it befell */
  private lastError: string | undefined;
  private latencyTotal = 0;
  private latencyMax = 0;

  constructor(
    readonly role: string,
    readonly type: string,
    readonly label: string | undefined,
  ) {}

  /**
   * a message accepted by this connector, `receivedAt` being when its input got it. An output's
   * deliveries are counted by whoever wrote to it (the stream, a broker output), never by the
   * output itself, so each message is one `sent` and one latency sample.
   */
  delivered(receivedAt: number): void {
    this.sent++;
    const ms = performance.now() - receivedAt;
    this.latencyTotal += ms;
    if (ms > this.latencyMax) this.latencyMax = ms;
  }

  /** a message this connector failed (a processor flags it and passes it on) */
  failed(error: string): void {
    this.errors++;
    this.lastError = `message ${this.received}: ${error}`;
  }

  snapshot(): ConnectorStats {
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      role: this.role,
      type: this.type,
      ...(this.label ? { label: this.label } : {}),
      received: this.received,
      sent: this.sent,
      errors: this.errors,
      connection_attempts: this.connectionAttempts,
      connection_failures: this.connectionFailures,
      latency_ms_mean: this.sent === 0 ? 0 : round(this.latencyTotal / this.sent),
      latency_ms_max: round(this.latencyMax),
      ...(this.lastError ? { last_error: this.lastError } : {}),
    };
  }
}
