import { parseGoDuration } from '../../../lib/streams/duration';
import { QueryError } from './errors';
import { asText, valueMethod } from './method-kit';
import { param } from './params';
import { fail, typeError } from './query';
import type { MethodSpec } from './registry';
import { Timestamp } from './timestamp';
import { formatTimestamp, parseTimestamp, RFC3339_NANO, strftimeChunks, zoneOffset } from './time-layout';
import type { Value } from './values';

/** a timestamp from a timestamp, an RFC 3339 string or Unix seconds (Bento's IGetTimestamp) */
function timestampOf(v: Value): Timestamp {
  if (v instanceof Timestamp) return v;
  if (typeof v === 'bigint') return new Timestamp(v * 1_000_000_000n);
  if (typeof v === 'number') return new Timestamp(BigInt(Math.round(v * 1e9)));
  if (typeof v === 'string' || v instanceof Uint8Array) {
    try {
      return parseTimestamp(RFC3339_NANO, asText(v));
    } catch (err) {
      fail((err as Error).message);
    }
  }
  throw typeError(v, '', 'number', 'string');
}

function inZone(ts: Timestamp, zone: string): Timestamp {
  try {
    return ts.withOffset(zoneOffset(zone, ts));
  } catch (err) {
    return fail((err as Error).message);
  }
}

/** Go's time.ParseDuration: "1h30m", "1.5s", "-50us" → integer nanoseconds */
function parseDurationValue(text: string): bigint {
  try {
    return parseGoDuration(text);
  } catch (err) {
    return fail((err as Error).message);
  }
}

/** Timestamps: Go layouts (ts_parse, ts_format), strftime (ts_strptime, ts_strftime), Unix times, durations. */
export const TIME_METHODS: Record<string, MethodSpec> = {
  ts_parse: valueMethod([param('format', 'string')], (v, args, ctx) => {
    try {
      return parseTimestamp(args.string('format', ctx), asText(v));
    } catch (err) {
      if (err instanceof QueryError) throw err;
      return fail((err as Error).message);
    }
  }),
  ts_format: valueMethod(
    [param('format', 'string', { default: RFC3339_NANO }), param('tz', 'string', { optional: true })],
    (v, args, ctx) => {
      let ts = timestampOf(v);
      if (args.has('tz')) {
        try {
          ts = ts.withOffset(zoneOffset(args.string('tz', ctx), ts));
        } catch (err) {
          if (err instanceof QueryError) throw err;
          fail((err as Error).message);
        }
      }
      return formatTimestamp(ts, args.string('format', ctx));
    },
  ),
  ts_strftime: valueMethod([param('format', 'string'), param('tz', 'string', { optional: true })], (v, args, ctx) => {
    let ts = timestampOf(v);
    if (args.has('tz')) ts = inZone(ts, args.string('tz', ctx));
    return formatTimestamp(ts, strftimeChunks(args.string('format', ctx)));
  }),
  ts_strptime: valueMethod([param('format', 'string')], (v, args, ctx) => {
    const format = args.string('format', ctx);
    try {
      return parseTimestamp(format, asText(v), strftimeChunks(format));
    } catch (err) {
      if (err instanceof QueryError) throw err;
      return fail((err as Error).message);
    }
  }),
  ts_sub: valueMethod(
    [param('t2', 'any')],
    (v, args, ctx) => timestampOf(v).epochNanos - timestampOf(args.value('t2', ctx)).epochNanos,
  ),
  ts_round: valueMethod([param('duration', 'int')], (v, args, ctx) => {
    const ts = timestampOf(v);
    const d = args.int('duration', ctx);
    if (d <= 0n) return ts;
    const rem = ((ts.epochNanos % d) + d) % d;
    return new Timestamp(rem + rem < d ? ts.epochNanos - rem : ts.epochNanos + d - rem, ts.offsetSeconds);
  }),
  parse_duration: valueMethod([], (v) => parseDurationValue(asText(v))),
  ts_tz: valueMethod([param('tz', 'string')], (v, args, ctx) => {
    const ts = timestampOf(v);
    try {
      return ts.withOffset(zoneOffset(args.string('tz', ctx), ts));
    } catch (err) {
      return fail((err as Error).message);
    }
  }),
  ts_unix: valueMethod([], (v) => timestampOf(v).unixSeconds),
  ts_unix_milli: valueMethod([], (v) => timestampOf(v).epochNanos / 1_000_000n),
  ts_unix_micro: valueMethod([], (v) => timestampOf(v).epochNanos / 1_000n),
  ts_unix_nano: valueMethod([], (v) => timestampOf(v).epochNanos),
};
