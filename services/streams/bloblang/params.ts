import { fail, execValue, typeError, type Context, type Query } from './query';
import { bytesToString, floatToInt, isNumber, type Result, type Value } from './values';

export type ParamKind = 'any' | 'string' | 'int' | 'number' | 'bool' | 'query';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** absent: required; undefined value allowed via `optional` */
  default?: Value;
  optional?: boolean;
  /** collects every remaining nameless argument (format, without, append) */
  variadic?: boolean;
}

export interface CallableSpec {
  params: ParamSpec[];
}

export const param = (name: string, kind: ParamKind, extra: Partial<ParamSpec> = {}): ParamSpec => ({
  name,
  kind,
  ...extra,
});

/** A call's arguments, matched to the parameters at parse time and read (evaluated) on demand. */
export class Args {
  constructor(
    private readonly owner: string,
    private readonly specs: ParamSpec[],
    private readonly given: Map<string, Query>,
    readonly rest: Query[],
  ) {}

  static bind(owner: string, spec: CallableSpec, positional: Query[], named: Map<string, Query>): Args | string {
    if (positional.length > 0 && named.size > 0) return 'cannot mix named and nameless arguments';
    const given = new Map<string, Query>();
    const rest: Query[] = [];
    const variadic = spec.params.find((p) => p.variadic);
    for (const [i, q] of positional.entries()) {
      const p = spec.params[i];
      if (p && !p.variadic) given.set(p.name, q);
      else if (variadic) rest.push(q);
      else return `wrong number of arguments, expected ${spec.params.length}, got ${positional.length}`;
    }
    for (const [name, q] of named) {
      if (!spec.params.some((p) => p.name === name)) return `unknown parameter ${name}`;
      given.set(name, q);
    }
    for (const p of spec.params) {
      if (!p.variadic && !given.has(p.name) && p.default === undefined && !p.optional)
        return `missing parameter: ${p.name}`;
    }
    return new Args(owner, spec.params, given, rest);
  }

  /** the first literal argument whose type the parameter cannot take, as Bento words it */
  checkLiterals(): string | null {
    for (const spec of this.specs) {
      const literal = this.given.get(spec.name)?.literal;
      if (!literal) continue;
      const v = literal.value;
      const ok =
        spec.kind === 'string'
          ? typeof v === 'string'
          : spec.kind === 'int' || spec.kind === 'number'
            ? isNumber(v)
            : spec.kind === 'bool'
              ? typeof v === 'boolean'
              : true;
      if (!ok) {
        const expected = spec.kind === 'int' ? 'number' : (spec.kind as 'string' | 'number' | 'bool');
        return `field ${spec.name}: ${typeError(v, '', expected).message}`;
      }
    }
    return null;
  }

  has(name: string): boolean {
    return this.given.has(name);
  }

  query(name: string): Query {
    const q = this.given.get(name);
    if (!q) throw new Error(`${this.owner}: no query for ${name}`);
    return q;
  }

  raw(name: string, ctx: Context): Result | undefined {
    const q = this.given.get(name);
    if (q) return q.exec(ctx);
    return this.specs.find((p) => p.name === name)?.default;
  }

  value(name: string, ctx: Context): Value {
    const q = this.given.get(name);
    if (q) return execValue(q, ctx);
    const spec = this.specs.find((p) => p.name === name);
    return spec?.default ?? null;
  }

  string(name: string, ctx: Context): string {
    const v = this.value(name, ctx);
    if (typeof v === 'string') return v;
    if (v instanceof Uint8Array) return bytesToString(v);
    throw this.argError(name, v, 'string');
  }

  optionalString(name: string, ctx: Context): string | undefined {
    return this.has(name) || this.specs.find((p) => p.name === name)?.default !== undefined
      ? this.string(name, ctx)
      : undefined;
  }

  int(name: string, ctx: Context): bigint {
    const v = this.value(name, ctx);
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number') return floatToInt(v);
    throw this.argError(name, v, 'number');
  }

  number(name: string, ctx: Context): number {
    const v = this.value(name, ctx);
    if (isNumber(v)) return Number(v);
    throw this.argError(name, v, 'number');
  }

  bool(name: string, ctx: Context): boolean {
    const v = this.value(name, ctx);
    if (typeof v === 'boolean') return v;
    throw this.argError(name, v, 'bool');
  }

  private argError(name: string, v: Value, expected: 'string' | 'number' | 'bool'): Error {
    const err = typeError(v, '', expected);
    return fail(`${this.owner}: field ${name}: ${err.message}`);
  }
}
