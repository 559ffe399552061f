import { pace } from './budget';
import { LimitError, NoContextError, QueryError } from './errors';
import type { Timestamp } from './timestamp';
import { type Result, type TypeName, type Value, typeOf, formatFloat } from './values';

/** A compiled query: a closure with the text that names it in error messages. */
export interface Query {
  readonly annotation: string;
  exec(ctx: Context): Result;
  /** set for literals, so operators and match cases can fold them at parse time */
  readonly literal?: { value: Value };
}

export interface Limits {
  /** nested `apply` / map calls before the message fails @default 200 */
  maxMapDepth: number;
  /** longest string, byte array or serialised document a mapping may build @default 16 MiB */
  maxValueBytes: number;
  /** most array elements and object fields a mapping may copy in one assignment @default 1e6 */
  maxValueNodes: number;
  /** element visits (lambda calls, copies, generated elements) one message may cost @default 1e7 */
  maxSteps: number;
  /**
   * wall-clock ms one evaluation (a mapping on one message, a check, an interpolation) may take:
   * it runs on the thread every API of the node shares @default 50 (see setDefaultTimeBudget)
   */
  maxMillis: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxMapDepth: 200,
  maxValueBytes: 16 * 1024 * 1024,
  maxValueNodes: 1_000_000,
  maxSteps: 10_000_000,
  maxMillis: 50,
};

export interface RuntimeOptions {
  /** only environment variables with this prefix are readable by `env()`, named without it @default 'GW_STREAMS_ENV_' */
  envPrefix: string;
  /**
   * the environment `env()` reads, handed over by the streams runtime (lib/config is the one
   * module that reads process.env) @default {} (env() gives null)
   */
  env: Record<string, string | undefined>;
  /** the clock behind now() and timestamp_unix() @default Date.now-based */
  now: () => Timestamp;
  hostname: () => string;
  limits: Limits;
}

/** One message being mapped: what its queries read and where its assignments go. */
export interface Execution {
  content(): Uint8Array;
  /** the message parsed as JSON (throws a QueryError when it is not) */
  structured(): Value;
  /** the input message's metadata (read by meta() and metadata()) */
  inputMeta: ReadonlyMap<string, Value>;
  /** the new message's metadata: `meta x = …` writes it, `@x` reads it */
  meta: Map<string, Value>;
  /** the error a previous processor flagged on the message, if any */
  error: string | null;
  vars: Map<string, Value>;
  maps: Map<string, MappingProgram>;
  /** `count(name)` totals, kept per parsed mapping so tenants never share them */
  counters: Map<string, bigint>;
  options: RuntimeOptions;
  depth: number;
  /** element visits so far (see Limits.maxSteps) */
  steps: number;
}

/** A `map` definition: runs its statements with the context's root as the new document. */
export interface MappingProgram {
  readonly name: string;
  run(ctx: Context): void;
}

const UNSET = Symbol('unset');

/** The evaluation context: `this` (a stack, so lambdas can pop it), named lambda values, `root` */
export class Context {
  constructor(
    readonly run: Execution,
    readonly root: { value: Result },
    private readonly stack: Array<Value | typeof UNSET>,
    readonly named: ReadonlyMap<string, Value>,
  ) {}

  static start(run: Execution, root: { value: Result }): Context {
    return new Context(run, root, [UNSET], new Map());
  }

  /** `this` */
  current(field = ''): Value {
    const top = this.stack[this.stack.length - 1];
    if (top !== UNSET) return top;
    if (this.stack.length > 1) throw new NoContextError(field);
    try {
      return this.run.structured();
    } catch (err) {
      if (err instanceof LimitError) throw err;
      // Bento reports this one as is, however deep in a query it happened
      const failure = new QueryError(
        `unable to reference message as structured (with 'this${field ? `.${field}` : ''}'): ${(err as Error).message}`,
      );
      (failure as { attributed?: boolean }).attributed = true;
      throw failure;
    }
  }

  withValue(v: Value): Context {
    return new Context(this.run, this.root, [...this.stack, v], this.named);
  }

  /** a lambda `name -> body` binds the current value to name and restores the previous `this` */
  popInto(name: string): Context {
    const v = this.current();
    const rest: Array<Value | typeof UNSET> = this.stack.length > 1 ? this.stack.slice(0, -1) : [UNSET];
    const named = name === '_' ? this.named : new Map(this.named).set(name, v);
    return new Context(this.run, this.root, rest, named);
  }

  withRoot(root: { value: Result }, value: Value): Context {
    return new Context(this.run, root, [value], this.named);
  }
}

export function fail(message: string): never {
  throw new QueryError(message);
}

/** Bento's value.TypeError: "expected string value, got number from field `this.a` (5)" */
export class TypeErr extends QueryError {
  constructor(
    readonly value: Result,
    readonly expected: TypeName[],
    readonly from: string,
  ) {
    super(typeErrorText(value, expected, from));
  }

  /** the error attributed to the query whose value it is, unless already attributed */
  from_(annotation: string): TypeErr {
    return this.from ? this : new TypeErr(this.value, this.expected, annotation);
  }
}

export function typeError(value: Result, from: string, ...expected: TypeName[]): TypeErr {
  return new TypeErr(value, expected, from);
}

function typeErrorText(value: Result, expected: TypeName[], from: string): string {
  const actual = typeOf(value);
  let shown = '';
  if (typeof value === 'string') shown = ` ("${value}")`;
  else if (typeof value === 'boolean' || typeof value === 'bigint') shown = ` (${String(value)})`;
  else if (typeof value === 'number') shown = ` (${formatFloat(value)})`;
  const exp = expected.length ? `expected ${joinOr(expected)} value` : 'unexpected value';
  return `${exp}, got ${actual}${from ? ` from ${from}` : ''}${shown}`;
}

/** Bento's ErrFrom: type errors name the query, other errors are prefixed with it */
export function errFrom(err: unknown, annotation: string): unknown {
  if (err instanceof TypeErr) return err.from_(annotation);
  if (err instanceof QueryError && !(err instanceof LimitError) && !(err as { attributed?: boolean }).attributed) {
    const wrapped = new QueryError(`${annotation}: ${err.message}`);
    (wrapped as { attributed?: boolean }).attributed = true;
    return wrapped;
  }
  return err;
}

function joinOr(items: string[]): string {
  if (items.length <= 2) return items.join(' or ');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** evaluates to a Value; `deleted()` and nothing are values only where assignments see them */
export function execValue(q: Query, ctx: Context): Value {
  const v = q.exec(ctx);
  if (typeof v === 'symbol') throw typeError(v, q.annotation);
  return v;
}

/** counts work; past the budget the message fails (nested map_each over range() and the like) */
export function charge(ctx: Context, steps: number): void {
  const run = ctx.run;
  run.steps += steps;
  if (run.steps > run.options.limits.maxSteps)
    throw new LimitError(`mapping exceeded its budget of ${run.options.limits.maxSteps} steps`);
  pace(steps);
}

/** refuses a value past the size limit; building it took native work in proportion, paced as such */
export function checkSize(length: number, ctx: Context): void {
  pace(1 + (length >> 12));
  if (length > ctx.run.options.limits.maxValueBytes) {
    throw new LimitError(`value of ${length} bytes exceeds the limit of ${ctx.run.options.limits.maxValueBytes} bytes`);
  }
}
