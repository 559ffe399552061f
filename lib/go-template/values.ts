/**
 * How template data looks to Go. Body data comes from encoding/json, so a JS `number` is a Go
 * float64; a Go int (a template's integer literal, `len`, a range index) is a `bigint`; `null` is
 * a nil interface and `undefined` is Go's invalid value (a missing map key), which prints as
 * `<no value>`. Arrays are `[]interface {}` and objects `map[string]interface {}`.
 */
export type GoMap = Record<string, unknown>;

export class ExecError extends Error {}

export function isMap(value: unknown): value is GoMap {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The Go type name fmt's `%T` and error texts use. */
export function typeName(value: unknown): string {
  if (value === undefined || value === null) return '<nil>';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float64';
  }
  return Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}';
}

/** text/template's isTrue: the zero value of its type is false. */
export function isTrue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value !== '';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0;
}

/** strconv.FormatFloat(f, 'g', -1, 64), as fmt's `%v` prints a float64. */
export function formatFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exp] = value.toExponential().split('e');
  const exponent = Number(exp);
  // %v is %g with the shortest digits, which uses an exponent below 1e-4 and from 1e6 on
  if (exponent < -4 || exponent >= 6) return `${mantissa}e${exponentText(exponent)}`;
  return String(value);
}

/** Go writes at least two exponent digits: `1e+06`, `1e-05`. */
export function exponentText(exponent: number): string {
  const digits = String(Math.abs(exponent)).padStart(2, '0');
  return `${exponent < 0 ? '-' : '+'}${digits}`;
}

/** fmt's `%v` of one value (maps sorted by key, as fmt prints them). */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '<nil>';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return formatFloat(value);
    case 'bigint':
    case 'boolean':
      return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(formatValue).join(' ')}]`;
  const map = value as GoMap;
  const entries = Object.keys(map)
    .sort()
    .map((key) => `${key}:${formatValue(map[key])}`);
  return `map[${entries.join(' ')}]`;
}

/**
 * What `{{pipeline}}` writes: `%v`, but a nil is `<no value>` (Go digs an interface{} result down
 * to what it holds, and a nil one to the invalid value), while `print` of a nil gives `<nil>`.
 */
export function printed(value: unknown): string {
  return value === undefined || value === null ? '<no value>' : formatValue(value);
}

/** fmt.Sprint: a space goes between two operands only when neither is a string. */
export function sprint(args: unknown[]): string {
  let out = '';
  args.forEach((arg, i) => {
    if (i > 0 && typeof arg !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += formatValue(arg);
  });
  return out;
}

/** fmt.Sprintln: always a space between operands, and a newline at the end. */
export function sprintln(args: unknown[]): string {
  return `${args.map(formatValue).join(' ')}\n`;
}

/**
 * The text html, js and urlquery escape (text/template's evalArgs): one string argument as it
 * is, otherwise fmt.Sprint with each nil shown as `<no value>`.
 */
export function argumentText(args: unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((arg) => (arg === undefined || arg === null ? '<no value>' : arg)));
}

/** UTF-8 bytes: Go strings are indexed, sliced and measured in bytes. */
export function bytesOf(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}
