import { bytesOf, exponentText, formatFloat, formatValue, isMap, typeName } from './values';

/** The part of fmt.Sprintf's verbs templates use, with Go's `%!verb(type=value)` for a mismatch. */
interface Spec {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  sharp: boolean;
  width?: number;
  precision?: number;
  verb: string;
}

const SPEC = /%([-+# 0]*)(\d+)?(?:\.(\d*))?(.)?/y;

export function sprintf(format: string, args: unknown[]): string {
  let out = '';
  let next = 0;
  let at = 0;
  while (at < format.length) {
    const percent = format.indexOf('%', at);
    if (percent === -1) {
      out += format.slice(at);
      break;
    }
    out += format.slice(at, percent);
    SPEC.lastIndex = percent;
    const match = SPEC.exec(format) as RegExpExecArray;
    at = SPEC.lastIndex;
    const [, flags, width, precision, verb] = match;
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (next >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const spec: Spec = {
      minus: flags.includes('-'),
      plus: flags.includes('+'),
      zero: flags.includes('0') && !flags.includes('-'),
      sharp: flags.includes('#'),
      width: width === undefined ? undefined : Number(width),
      precision: precision === undefined ? undefined : Number(precision || 0),
      verb,
    };
    out += pad(formatOne(args[next++], spec), spec);
  }
  if (next < args.length) {
    const extra = args.slice(next).map((arg) => (arg == null ? '<nil>' : `${typeName(arg)}=${formatValue(arg)}`));
    out += `%!(EXTRA ${extra.join(', ')})`;
  }
  return out;
}

function pad(text: string, spec: Spec): string {
  if (spec.width === undefined || [...text].length >= spec.width) return text;
  const fill = spec.width - [...text].length;
  if (spec.minus) return text + ' '.repeat(fill);
  if (spec.zero && /^[-+]?[0-9]/.test(text) && 'dfeEgGxXbo'.includes(spec.verb)) {
    const sign = /^[-+]/.test(text) ? text[0] : '';
    return sign + '0'.repeat(fill) + text.slice(sign.length);
  }
  return ' '.repeat(fill) + text;
}

function bad(value: unknown, verb: string): string {
  return value == null ? `%!${verb}(<nil>)` : `%!${verb}(${typeName(value)}=${formatValue(value)})`;
}

function formatOne(value: unknown, spec: Spec): string {
  const { verb } = spec;
  if (verb === 'T') return typeName(value);
  if (verb === 'v' && !spec.plus) return formatValue(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatOne(item, spec)).join(' ')}]`;
  if (isMap(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${formatOne(key, spec)}:${formatOne(value[key], spec)}`);
    return `map[${entries.join(' ')}]`;
  }
  switch (typeof value) {
    case 'string':
      return formatString(value, spec) ?? bad(value, verb);
    case 'bigint':
      return formatInt(value, spec) ?? bad(value, verb);
    case 'number':
      return formatNumber(value, spec) ?? bad(value, verb);
    case 'boolean':
      return verb === 't' || verb === 'v' ? String(value) : bad(value, verb);
  }
  return verb === 'v' ? '<nil>' : bad(value, verb);
}

function formatString(value: string, spec: Spec): string | undefined {
  const text = spec.precision === undefined ? value : [...value].slice(0, spec.precision).join('');
  switch (spec.verb) {
    case 's':
    case 'v':
      return text;
    case 'q':
      return goQuote(text);
    case 'x':
    case 'X': {
      const hex = bytesOf(text).toString('hex');
      return spec.verb === 'X' ? hex.toUpperCase() : hex;
    }
  }
  return undefined;
}

function formatInt(value: bigint, spec: Spec): string | undefined {
  const sign = value < 0n ? '-' : spec.plus ? '+' : '';
  const magnitude = value < 0n ? -value : value;
  switch (spec.verb) {
    case 'd':
    case 'v':
      return sign + magnitude.toString(10);
    case 'x':
      return sign + (spec.sharp ? '0x' : '') + magnitude.toString(16);
    case 'X':
      return sign + (spec.sharp ? '0X' : '') + magnitude.toString(16).toUpperCase();
    case 'o':
      return sign + (spec.sharp ? '0' : '') + magnitude.toString(8);
    case 'b':
      return sign + magnitude.toString(2);
    case 'c':
      return String.fromCodePoint(Number(value));
    case 'q':
      return `'${goQuote(String.fromCodePoint(Number(value))).slice(1, -1)}'`;
  }
  return undefined;
}

function formatNumber(value: number, spec: Spec): string | undefined {
  const sign = spec.plus && value >= 0 ? '+' : '';
  const precision = spec.precision ?? 6;
  if (!Number.isFinite(value) && 'eEfFgGv'.includes(spec.verb)) return sign + formatFloat(value);
  switch (spec.verb) {
    case 'v':
    case 'g':
      return sign + (spec.precision === undefined ? formatFloat(value) : formatG(value, precision));
    case 'G':
      return sign + formatFloat(value).toUpperCase();
    case 'f':
    case 'F':
      return sign + value.toFixed(precision);
    case 'e':
    case 'E': {
      const [mantissa, exp] = value.toExponential(precision).split('e');
      const text = `${mantissa}e${exponentText(Number(exp))}`;
      return sign + (spec.verb === 'E' ? text.toUpperCase() : text);
    }
  }
  return undefined;
}

/** `%.Ng`: N significant digits, an exponent when it is below -4 or at least N. */
function formatG(value: number, precision: number): string {
  const digits = Math.max(precision, 1);
  const [mantissa, exp] = value.toExponential(digits - 1).split('e');
  const exponent = Number(exp);
  const trim = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
  if (exponent < -4 || exponent >= digits) return `${trim(mantissa)}e${exponentText(exponent)}`;
  return trim(value.toFixed(Math.max(digits - 1 - exponent, 0)));
}

const QUOTED: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** strconv.Quote. */
export function goQuote(text: string): string {
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0) as number;
    if (QUOTED[c] !== undefined) out += QUOTED[c];
    else if (PRINTABLE.test(c)) out += c;
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
