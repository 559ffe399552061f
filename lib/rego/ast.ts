import type { Location } from './errors';

/** A scalar, a variable, a reference, a call, a collection, a comprehension or an operation. */
export type Expr =
  | { type: 'scalar'; value: null | boolean | number | string; loc: Location }
  | { type: 'var'; name: string; loc: Location }
  | { type: 'ref'; head: Expr; path: Expr[]; loc: Location }
  | { type: 'call'; name: string; args: Expr[]; loc: Location }
  | { type: 'array'; items: Expr[]; loc: Location }
  | { type: 'set'; items: Expr[]; loc: Location }
  | { type: 'object'; entries: Array<[Expr, Expr]>; loc: Location }
  | { type: 'arrayCompr'; term: Expr; body: Literal[]; loc: Location }
  | { type: 'setCompr'; term: Expr; body: Literal[]; loc: Location }
  | { type: 'objectCompr'; key: Expr; value: Expr; body: Literal[]; loc: Location }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr; loc: Location }
  | { type: 'unary'; op: '-'; arg: Expr; loc: Location }
  | { type: 'in'; value: Expr; collection: Expr; loc: Location };

export type BinaryOp = ':=' | '=' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%' | '|' | '&';

/** One expression of a body. */
export type Literal =
  | { type: 'expr'; expr: Expr; negated: boolean; loc: Location }
  | { type: 'some'; names: string[]; loc: Location }
  | { type: 'someIn'; key?: Expr; value: Expr; collection: Expr; loc: Location }
  | { type: 'every'; key?: string; value: string; collection: Expr; body: Literal[]; loc: Location };

export type RuleKind = 'complete' | 'partialSet' | 'partialObject' | 'function';

/** One definition of a rule; several definitions of one name are OR-ed (or unioned). */
export interface RuleDefinition {
  name: string;
  kind: RuleKind;
  isDefault: boolean;
  /** function parameters (patterns) */
  args: Expr[];
  /** the member of a partial set, or the key of a partial object */
  key?: Expr;
  /** the value; `true` when the head names none */
  value: Expr;
  body: Literal[];
  loc: Location;
}

export interface Module {
  packageName: string;
  rules: RuleDefinition[];
}
