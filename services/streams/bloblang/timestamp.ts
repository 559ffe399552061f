/**
 * Bloblang's timestamp values (Go's time.Time): an instant with nanosecond precision and the
 * UTC offset it was read in, which formatting keeps (`ts_parse` of "+02:00" prints "+02:00").
 */
export class Timestamp {
  constructor(
    /** nanoseconds since the Unix epoch */
    readonly epochNanos: bigint,
    /** offset from UTC in seconds, used when formatting */
    readonly offsetSeconds = 0,
  ) {}

  static fromMillis(ms: number): Timestamp {
    return new Timestamp(BigInt(Math.trunc(ms)) * 1_000_000n);
  }

  get unixSeconds(): bigint {
    const seconds = this.epochNanos / 1_000_000_000n;
    return this.epochNanos < 0n && seconds * 1_000_000_000n !== this.epochNanos ? seconds - 1n : seconds;
  }

  /** the sub-second part, 0 ≤ nanos < 1e9 */
  get nanos(): number {
    return Number(this.epochNanos - this.unixSeconds * 1_000_000_000n);
  }

  withOffset(offsetSeconds: number): Timestamp {
    return new Timestamp(this.epochNanos, offsetSeconds);
  }

  /** calendar fields in the timestamp's own offset */
  fields(): CalendarFields {
    const local = new Date(Number(this.unixSeconds + BigInt(this.offsetSeconds)) * 1000);
    return {
      year: local.getUTCFullYear(),
      month: local.getUTCMonth() + 1,
      day: local.getUTCDate(),
      hour: local.getUTCHours(),
      minute: local.getUTCMinutes(),
      second: local.getUTCSeconds(),
      nanos: this.nanos,
      weekday: local.getUTCDay(),
      yearDay:
        Math.floor(
          (Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) -
            Date.UTC(local.getUTCFullYear(), 0, 1)) /
            86_400_000,
        ) + 1,
      offsetSeconds: this.offsetSeconds,
    };
  }
}

export interface CalendarFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanos: number;
  weekday: number;
  yearDay: number;
  offsetSeconds: number;
}
