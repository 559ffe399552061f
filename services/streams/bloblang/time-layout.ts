import { Timestamp } from './timestamp';

/**
 * Go's reference-time layouts ("2006-01-02T15:04:05Z07:00"), which Bloblang's `ts_parse` and
 * `ts_format` use: a layout is the reference time written the way the value should look.
 */
export const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';
export const RFC3339 = '2006-01-02T15:04:05Z07:00';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** longest first where one token is the prefix of another */
const TOKENS = [
  'January',
  'Jan',
  'Monday',
  'Mon',
  'MST',
  '2006',
  '002',
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '_2',
  '15',
  'Z07:00:00',
  'Z070000',
  'Z07:00',
  'Z0700',
  'Z07',
  '-07:00:00',
  '-070000',
  '-07:00',
  '-0700',
  '-07',
  'PM',
  'pm',
  '1',
  '2',
  '3',
  '4',
  '5',
];

/** a layout read into pieces; `bare` fractions (strftime's %f) have no leading dot */
export type Chunk =
  { literal: string } | { token: string } | { fraction: { digits: number; trim: boolean; bare?: boolean } };

function chunks(layout: string): Chunk[] {
  const out: Chunk[] = [];
  let literal = '';
  for (let i = 0; i < layout.length;) {
    const fraction = /^[.,](0+|9+)(?![0-9])/.exec(layout.slice(i));
    if (fraction && i > 0 && /05$/.test(layout.slice(0, i))) {
      if (literal) {
        out.push({ literal });
        literal = '';
      }
      out.push({ fraction: { digits: fraction[1].length, trim: fraction[1][0] === '9' } });
      i += fraction[0].length;
      continue;
    }
    const token = TOKENS.find((t) => layout.startsWith(t, i));
    if (token) {
      if (literal) {
        out.push({ literal });
        literal = '';
      }
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

export function formatTimestamp(ts: Timestamp, layout: string | Chunk[]): string {
  const f = ts.fields();
  return (typeof layout === 'string' ? chunks(layout) : layout)
    .map((chunk) => {
      if ('literal' in chunk) return chunk.literal;
      if ('fraction' in chunk) {
        const digits = pad(f.nanos, 9).slice(0, chunk.fraction.digits);
        if (chunk.fraction.bare) return digits;
        if (!chunk.fraction.trim) return `.${digits}`;
        const trimmed = digits.replace(/0+$/, '');
        return trimmed ? `.${trimmed}` : '';
      }
      const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
      switch (chunk.token) {
        case 'January':
          return MONTHS[f.month - 1];
        case 'Jan':
          return MONTHS[f.month - 1].slice(0, 3);
        case 'Monday':
          return DAYS[f.weekday];
        case 'Mon':
          return DAYS[f.weekday].slice(0, 3);
        case 'MST':
          return f.offsetSeconds === 0 ? 'UTC' : formatOffset('-0700', f.offsetSeconds);
        case '2006':
          return pad(f.year, 4);
        case '06':
          return pad(f.year % 100, 2);
        case '01':
          return pad(f.month, 2);
        case '1':
          return String(f.month);
        case '02':
          return pad(f.day, 2);
        case '_2':
          return pad(f.day, 2, ' ');
        case '2':
          return String(f.day);
        case '002':
          return pad(f.yearDay, 3);
        case '15':
          return pad(f.hour, 2);
        case '03':
          return pad(hour12, 2);
        case '3':
          return String(hour12);
        case '04':
          return pad(f.minute, 2);
        case '4':
          return String(f.minute);
        case '05':
          return pad(f.second, 2);
        case '5':
          return String(f.second);
        case 'PM':
          return f.hour >= 12 ? 'PM' : 'AM';
        case 'pm':
          return f.hour >= 12 ? 'pm' : 'am';
        default:
          return formatOffset(chunk.token, f.offsetSeconds);
      }
    })
    .join('');
}

class LayoutError extends Error {}

/** Parses `value` with a Go layout; throws an Error in Go's wording when it does not match. */
export function parseTimestamp(layout: string, value: string, pieces: Chunk[] = chunks(layout)): Timestamp {
  const reader = new LayoutReader(layout, value);
  const layoutChunks = pieces;
  const hasFraction = layoutChunks.some((c) => 'fraction' in c);
  for (const chunk of layoutChunks) {
    if ('literal' in chunk) reader.literal(chunk.literal);
    else if ('fraction' in chunk) reader.fraction(chunk.fraction.digits, chunk.fraction.trim, chunk.fraction.bare);
    else reader.token(chunk.token, hasFraction);
  }
  return reader.finish();
}

/** The fields read so far from a value, one layout chunk at a time. */
class LayoutReader {
  private at = 0;
  private year = 1;
  private month = 1;
  private day = 1;
  private hour = 0;
  private minute = 0;
  private second = 0;
  private nanos = 0;
  private offset = 0;
  private pm: boolean | undefined;

  constructor(
    private readonly layout: string,
    private readonly value: string,
  ) {}

  private fail(what: string): never {
    throw new LayoutError(
      `parsing time "${this.value}" as "${this.layout}": cannot parse "${this.value.slice(this.at)}" as "${what}"`,
    );
  }

  private match(pattern: RegExp, what: string): RegExpExecArray {
    const m = pattern.exec(this.value.slice(this.at));
    if (!m) this.fail(what);
    this.at += m[0].length;
    return m;
  }

  private digits(min: number, max: number, what: string): number {
    return Number(this.match(new RegExp(`^[0-9]{${min},${max}}`), what)[0]);
  }

  private word(names: string[], len: number | undefined, what: string): number {
    const rest = this.value.slice(this.at).toLowerCase();
    const index = names.findIndex((n) => rest.startsWith((len ? n.slice(0, len) : n).toLowerCase()));
    if (index < 0) this.fail(what);
    this.at += len ?? names[index].length;
    return index;
  }

  literal(text: string): void {
    if (!this.value.startsWith(text, this.at)) this.fail(text);
    this.at += text.length;
  }

  fraction(digits: number, optional: boolean, bare = false): void {
    const m = (bare ? /^()([0-9]+)/ : /^[.,]([0-9]+)/).exec(this.value.slice(this.at));
    if (!m) {
      if (!optional) this.fail(`.${'0'.repeat(digits)}`);
      return;
    }
    this.nanos = Number(m[m.length - 1].slice(0, 9).padEnd(9, '0'));
    this.at += m[0].length;
  }

  token(token: string, layoutHasFraction: boolean): void {
    switch (token) {
      case 'January':
        this.month = this.word(MONTHS, undefined, token) + 1;
        break;
      case 'Jan':
        this.month = this.word(MONTHS, 3, token) + 1;
        break;
      case 'Monday':
        this.word(DAYS, undefined, token);
        break;
      case 'Mon':
        this.word(DAYS, 3, token);
        break;
      case 'MST':
        this.match(/^[A-Z]{3,5}/, token);
        break;
      case '2006':
        this.year = this.digits(4, 4, token);
        break;
      case '06':
        this.year = 2000 + this.digits(2, 2, token);
        if (this.year >= 2069) this.year -= 100;
        break;
      case '01':
      case '1':
        this.month = this.digits(token.length, 2, token);
        break;
      case '_2':
        if (this.value[this.at] === ' ') this.at++;
        this.day = this.digits(1, 2, token);
        break;
      case '02':
      case '2':
        this.day = this.digits(token.length, 2, token);
        break;
      case '002':
        this.digits(3, 3, token);
        break;
      case '15':
        this.hour = this.digits(1, 2, token);
        break;
      case '03':
      case '3':
        this.hour = this.digits(token.length, 2, token);
        break;
      case '04':
      case '4':
        this.minute = this.digits(token.length, 2, token);
        break;
      case '05':
      case '5':
        this.second = this.digits(token.length, 2, token);
        // Go accepts a fraction after the seconds even when the layout has none
        if (!layoutHasFraction) this.fraction(0, true);
        break;
      case 'PM':
      case 'pm':
        this.pm = this.match(/^(AM|PM)/i, token)[0].toUpperCase() === 'PM';
        break;
      default:
        this.offset = this.zone(token);
    }
  }

  private zone(token: string): number {
    if (token.startsWith('Z') && this.value[this.at] === 'Z') {
      this.at++;
      return 0;
    }
    const m = this.match(/^([+-])([0-9]{2})(?::?([0-9]{2}))?(?::?([0-9]{2}))?/, token);
    const seconds = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    return m[1] === '-' ? -seconds : seconds;
  }

  finish(): Timestamp {
    if (this.at < this.value.length)
      throw new LayoutError(`parsing time "${this.value}": extra text: "${this.value.slice(this.at)}"`);
    if (this.pm !== undefined) this.hour = (this.hour % 12) + (this.pm ? 12 : 0);
    if (this.month < 1 || this.month > 12) throw new LayoutError(`parsing time "${this.value}": month out of range`);
    if (this.day < 1 || this.day > 31 || this.hour > 23 || this.minute > 59 || this.second > 59) {
      throw new LayoutError(`parsing time "${this.value}": day out of range`);
    }
    const utcMs =
      Date.UTC(this.year, this.month - 1, this.day, this.hour, this.minute, this.second) - this.offset * 1000;
    return new Timestamp(BigInt(utcMs) * 1_000_000n + BigInt(this.nanos), this.offset);
  }
}

/** The UTC offset, in seconds, of an IANA zone at an instant ("UTC", "Local" and "" are UTC). */
export function zoneOffset(zone: string, at: Timestamp): number {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return 0;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(
      new Date(Number(at.unixSeconds) * 1000),
    );
  } catch {
    throw new Error(`unknown time zone ${zone}`);
  }
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60;
  return m[1] === '-' ? -seconds : seconds;
}

/** strftime directives (as Bento's ts_strftime / ts_strptime read them) in Go layout pieces */
const STRFTIME: Record<string, Chunk[]> = {
  Y: [{ token: '2006' }],
  y: [{ token: '06' }],
  m: [{ token: '01' }],
  d: [{ token: '02' }],
  e: [{ token: '_2' }],
  b: [{ token: 'Jan' }],
  h: [{ token: 'Jan' }],
  B: [{ token: 'January' }],
  a: [{ token: 'Mon' }],
  A: [{ token: 'Monday' }],
  H: [{ token: '15' }],
  I: [{ token: '03' }],
  M: [{ token: '04' }],
  S: [{ token: '05' }],
  p: [{ token: 'PM' }],
  j: [{ token: '002' }],
  z: [{ token: '-0700' }],
  Z: [{ token: 'MST' }],
  f: [{ fraction: { digits: 6, trim: false, bare: true } }],
  F: [{ token: '2006' }, { literal: '-' }, { token: '01' }, { literal: '-' }, { token: '02' }],
  T: [{ token: '15' }, { literal: ':' }, { token: '04' }, { literal: ':' }, { token: '05' }],
  D: [{ token: '01' }, { literal: '/' }, { token: '02' }, { literal: '/' }, { token: '06' }],
  '%': [{ literal: '%' }],
  n: [{ literal: '\n' }],
  t: [{ literal: '\t' }],
};

export function strftimeChunks(format: string): Chunk[] {
  const out: Chunk[] = [];
  for (let i = 0; i < format.length; i++) {
    const directive = format[i] === '%' ? STRFTIME[format[i + 1]] : undefined;
    if (directive) {
      out.push(...directive);
      i++;
    } else out.push({ literal: format[i] });
  }
  return out;
}
