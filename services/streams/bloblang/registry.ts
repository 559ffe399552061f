import type { Args, CallableSpec } from './params';
import type { Context, Query } from './query';
import type { Result } from './values';

export type Exec = (ctx: Context) => Result;

export interface FunctionSpec extends CallableSpec {
  /** called once per call site at parse time, so stateful functions (counter) keep state per site */
  create(args: Args): Exec;
}

export interface MethodSpec extends CallableSpec {
  create(target: Query, args: Args): Exec;
}
