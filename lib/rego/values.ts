/** A Rego value: JSON, plus sets. Objects have string keys in gw's subset. */
export type Value = null | boolean | number | string | Value[] | RegoSet | { [key: string]: Value };

/** A set of values, kept unique by their canonical text. */
export class RegoSet {
  private readonly members = new Map<string, Value>();

  constructor(values: Iterable<Value> = []) {
    for (const v of values) this.add(v);
  }

  add(value: Value): void {
    this.members.set(canonical(value), value);
  }

  has(value: Value): boolean {
    return this.members.has(canonical(value));
  }

  get size(): number {
    return this.members.size;
  }

  /** members in a stable order (sorted by canonical text) */
  values(): Value[] {
    return [...this.members.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  }
}

export function isObject(value: Value | undefined): value is { [key: string]: Value } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RegoSet);
}

/** A text equal for equal values whatever the key order of objects or member order of sets. */
export function canonical(value: Value): string {
  if (value instanceof RegoSet) return `set(${value.values().map(canonical).join(',')})`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonical(a) === canonical(b);
}

/** `<` and friends: numbers with numbers, strings with strings; anything else is undefined. */
export function compare(a: Value, b: Value): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/** A JavaScript value (parsed JSON) as a Rego value: `undefined` members are dropped. */
export function fromJson(value: unknown): Value {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(fromJson);
  if (typeof value === 'object') {
    const out: { [key: string]: Value } = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) out[k] = fromJson(v);
    return out;
  }
  return null;
}

/** A Rego value as JSON: sets become sorted arrays. */
export function toJson(value: Value): unknown {
  if (value instanceof RegoSet) return value.values().map(toJson);
  if (Array.isArray(value)) return value.map(toJson);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return value;
}

export function typeName(value: Value): string {
  if (value === null) return 'null';
  if (value instanceof RegoSet) return 'set';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}
