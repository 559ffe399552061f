import { Timestamp } from './timestamp';

/**
 * Go's reference-time layouts ("2006-01-02T15:04:05Z07:00"), which Bloblang's `ts_parse` and
 * `ts_format` use: a layout is the reference time written the way the value should look.
 */
export const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';
export const RFC3339 = '2006-01-02T15:04:05Z07:00';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** longest first where one token is the prefix of another */
const TOKENS = [
  'January', 'Jan', 'Monday', 'Mon', 'MST', '2006', '002', '01', '02', '03', '04', '05', '06', '_2', '15',
  'Z07:00:00', 'Z070000', 'Z07:00', 'Z0700', 'Z07', '-07:00:00', '-070000', '-07:00', '-0700', '-07',
  'PM', 'pm', '1', '2', '3', '4', '5',
];

type Chunk = { literal: string } | { token: string } | { fraction: { digits: number; trim: boolean } };

function chunks(layout: string): Chunk[] {
  const out: Chunk[] = [];
  let literal = '';
  for (let i = 0; i < layout.length; ) {
    const fraction = /^[.,](0+|9+)(?![0-9])/.exec(layout.slice(i));
    if (fraction && i > 0 && /05$/.test(layout.slice(0, i))) {
      if (literal) out.push({ literal }), (literal = '');
      out.push({ fraction: { digits: fraction[1].length, trim: fraction[1][0] === '9' } });
      i += fraction[0].length;
      continue;
    }
    const token = TOKENS.find((t) => layout.startsWith(t, i));
    if (token) {
      if (literal) out.push({ literal }), (literal = '');
      out.push({ token });
      i += token.length;
    } else {
      literal += layout[i++];
    }
  }
  if (literal) out.push({ literal });
  return out;
}

const pad = (n: number, width: number, fill = '0') => String(n).padStart(width, fill);

function formatOffset(token: string, offset: number): string {
  if (offset === 0 && token.startsWith('Z')) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const [h, m, s] = [Math.floor(abs / 3600), Math.floor((abs % 3600) / 60), abs % 60];
  const body = token.replace(/^[Z-]/, '');
  if (body === '07') return `${sign}${pad(h, 2)}`;
  if (body === '0700') return `${sign}${pad(h, 2)}${pad(m, 2)}`;
  if (body === '07:00') return `${sign}${pad(h, 2)}:${pad(m, 2)}`;
  if (body === '070000') return `${sign}${pad(h, 2)}${pad(m, 2)}${pad(s, 2)}`;
  return `${sign}${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`;
}

export function formatTimestamp(ts: Timestamp, layout: string): string {
  const f = ts.fields();
  return chunks(layout)
    .map((chunk) => {
      if ('literal' in chunk) return chunk.literal;
      if ('fraction' in chunk) {
        const digits = pad(f.nanos, 9).slice(0, chunk.fraction.digits);
        if (!chunk.fraction.trim) return `.${digits}`;
        const trimmed = digits.replace(/0+$/, '');
        return trimmed ? `.${trimmed}` : '';
      }
      const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
      switch (chunk.token) {
        case 'January': return MONTHS[f.month - 1];
        case 'Jan': return MONTHS[f.month - 1].slice(0, 3);
        case 'Monday': return DAYS[f.weekday];
        case 'Mon': return DAYS[f.weekday].slice(0, 3);
        case 'MST': return f.offsetSeconds === 0 ? 'UTC' : formatOffset('-0700', f.offsetSeconds);
        case '2006': return pad(f.year, 4);
        case '06': return pad(f.year % 100, 2);
        case '01': return pad(f.month, 2);
        case '1': return String(f.month);
        case '02': return pad(f.day, 2);
        case '_2': return pad(f.day, 2, ' ');
        case '2': return String(f.day);
        case '002': return pad(f.yearDay, 3);
        case '15': return pad(f.hour, 2);
        case '03': return pad(hour12, 2);
        case '3': return String(hour12);
        case '04': return pad(f.minute, 2);
        case '4': return String(f.minute);
        case '05': return pad(f.second, 2);
        case '5': return String(f.second);
        case 'PM': return f.hour >= 12 ? 'PM' : 'AM';
        case 'pm': return f.hour >= 12 ? 'pm' : 'am';
        default: return formatOffset(chunk.token, f.offsetSeconds);
      }
    })
    .join('');
}

class LayoutError extends Error {}

/** Parses `value` with a Go layout; throws an Error in Go's wording when it does not match. */
export function parseTimestamp(layout: string, value: string): Timestamp {
  const fields = { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanos: 0, offset: 0, pm: undefined as boolean | undefined };
  let at = 0;
  const fail = (what: string): never => {
    throw new LayoutError(`parsing time "${value}" as "${layout}": cannot parse "${value.slice(at)}" as "${what}"`);
  };
  const digits = (min: number, max: number, what: string): number => {
    const match = new RegExp(`^[0-9]{${min},${max}}`).exec(value.slice(at));
    if (!match) fail(what);
    at += match![0].length;
    return Number(match![0]);
  };
  const word = (names: string[], len: number | undefined, what: string): number => {
    const rest = value.slice(at).toLowerCase();
    const index = names.findIndex((n) => rest.startsWith((len ? n.slice(0, len) : n).toLowerCase()));
    if (index < 0) fail(what);
    at += len ?? names[index].length;
    return index;
  };
  for (const chunk of chunks(layout)) {
    if ('literal' in chunk) {
      if (!value.startsWith(chunk.literal, at)) fail(chunk.literal);
      at += chunk.literal.length;
      continue;
    }
    if ('fraction' in chunk) {
      const match = /^[.,]([0-9]+)/.exec(value.slice(at));
      if (!match) {
        if (chunk.fraction.trim) continue;
        fail(`.${'0'.repeat(chunk.fraction.digits)}`);
      }
      fields.nanos = Number(match![1].slice(0, 9).padEnd(9, '0'));
      at += match![0].length;
      continue;
    }
    const token = chunk.token;
    switch (token) {
      case 'January': fields.month = word(MONTHS, undefined, token) + 1; break;
      case 'Jan': fields.month = word(MONTHS, 3, token) + 1; break;
      case 'Monday': word(DAYS, undefined, token); break;
      case 'Mon': word(DAYS, 3, token); break;
      case 'MST': { const m = /^[A-Z]{3,5}/.exec(value.slice(at)); if (!m) fail(token); at += m![0].length; break; }
      case '2006': fields.year = digits(4, 4, token); break;
      case '06': fields.year = 2000 + digits(2, 2, token); if (fields.year >= 2069) fields.year -= 100; break;
      case '01': case '1': fields.month = digits(token.length, 2, token); break;
      case '02': case '2': case '_2': if (token === '_2' && value[at] === ' ') at++; fields.day = digits(token === '02' ? 2 : 1, 2, token); break;
      case '002': digits(3, 3, token); break;
      case '15': fields.hour = digits(1, 2, token); break;
      case '03': case '3': fields.hour = digits(token.length, 2, token); break;
      case '04': case '4': fields.minute = digits(token.length, 2, token); break;
      case '05': case '5': {
        fields.second = digits(token.length, 2, token);
        const frac = /^[.,]([0-9]+)/.exec(value.slice(at));
        if (frac && !chunks(layout).some((c) => 'fraction' in c)) {
          fields.nanos = Number(frac[1].slice(0, 9).padEnd(9, '0'));
          at += frac[0].length;
        }
        break;
      }
      case 'PM': case 'pm': { const p = value.slice(at, at + 2).toUpperCase(); if (p !== 'AM' && p !== 'PM') fail(token); fields.pm = p === 'PM'; at += 2; break; }
      default: fields.offset = parseOffset(token);
    }
  }
  if (at < value.length) throw new LayoutError(`parsing time "${value}": extra text: "${value.slice(at)}"`);
  if (fields.pm !== undefined) fields.hour = (fields.hour % 12) + (fields.pm ? 12 : 0);
  if (fields.month < 1 || fields.month > 12) throw new LayoutError(`parsing time "${value}": month out of range`);
  if (fields.day < 1 || fields.day > 31 || fields.hour > 23 || fields.minute > 59 || fields.second > 59) {
    throw new LayoutError(`parsing time "${value}": day out of range`);
  }
  const utcMs = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second) - fields.offset * 1000;
  return new Timestamp(BigInt(utcMs) * 1_000_000n + BigInt(fields.nanos), fields.offset);

  function parseOffset(token: string): number {
    if (token.startsWith('Z') && value[at] === 'Z') {
      at++;
      return 0;
    }
    const m = /^([+-])([0-9]{2})(?::?([0-9]{2}))?(?::?([0-9]{2}))?/.exec(value.slice(at));
    if (!m) fail(token);
    at += m![0].length;
    const seconds = Number(m![2]) * 3600 + Number(m![3] ?? 0) * 60 + Number(m![4] ?? 0);
    return m![1] === '-' ? -seconds : seconds;
  }
}

/** The UTC offset, in seconds, of an IANA zone at an instant ("UTC", "Local" and "" are UTC). */
export function zoneOffset(zone: string, at: Timestamp): number {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return 0;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(Number(at.unixSeconds) * 1000));
  } catch {
    throw new Error(`unknown time zone ${zone}`);
  }
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60;
  return m[1] === '-' ? -seconds : seconds;
}
