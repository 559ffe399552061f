import { pace } from './budget';
import { LimitError, QueryError } from './errors';
import { checkCondition } from './parse-query';
import { charge, fail, type Context, type Query } from './query';
import { DELETE, NOTHING, isObject, newObject, typeOf, type Result, type Value } from './values';

export type Target =
  { kind: 'root'; path: string[] } | { kind: 'meta'; key: string | null } | { kind: 'var'; name: string };

export type Statement =
  | { kind: 'assign'; line: number; target: Target; query: Query }
  | { kind: 'if'; line: number; branches: Array<{ cond: Query | null; body: Statement[] }> };

/** Runs statements in order; the first failure stops the mapping, named by its line. */
export function runStatements(statements: Statement[], ctx: Context, wrapLines: boolean): void {
  for (const statement of statements) {
    try {
      runStatement(statement, ctx);
    } catch (err) {
      if (wrapLines && err instanceof QueryError && !(err instanceof LimitError)) {
        throw new QueryError(`failed assignment (line ${statement.line}): ${err.message}`);
      }
      throw err;
    }
  }
}

function runStatement(statement: Statement, ctx: Context): void {
  if (statement.kind === 'if') {
    for (const [i, branch] of statement.branches.entries()) {
      if (branch.cond && !checkStatementCondition(branch.cond, ctx, i)) continue;
      runStatements(branch.body, ctx, false);
      return;
    }
    return;
  }
  const value = statement.query.exec(ctx);
  if (value === NOTHING) return;
  assign(statement.target, value, ctx);
}

function checkStatementCondition(cond: Query, ctx: Context, index: number): boolean {
  const v = cond.exec(ctx);
  if (typeof v !== 'boolean') {
    if (v === null) fail(`${cond.annotation} resolved to a non-boolean value null`);
    return checkCondition(cond, ctx, index);
  }
  return v;
}

function assign(target: Target, value: Result, ctx: Context): void {
  const deleted = value === DELETE;
  const copy = deleted ? null : boundedClone(value as Value, ctx);
  switch (target.kind) {
    case 'var':
      if (deleted) ctx.run.vars.delete(target.name);
      else ctx.run.vars.set(target.name, copy);
      return;
    case 'meta':
      return assignMeta(target.key, deleted, copy, ctx);
    case 'root':
      return assignRoot(target.path, deleted ? DELETE : copy, ctx.root);
  }
}

function assignMeta(key: string | null, deleted: boolean, value: Value, ctx: Context): void {
  const meta = ctx.run.meta;
  if (key !== null) {
    if (deleted) meta.delete(key);
    else meta.set(key, value);
    return;
  }
  if (deleted) return meta.clear();
  if (!isObject(value)) fail(`setting root meta object requires object value, received: ${typeOf(value)}`);
  meta.clear();
  for (const k of Object.keys(value)) meta.set(k, value[k]);
}

function assignRoot(path: string[], value: Value | typeof DELETE, root: { value: Result }): void {
  if (path.length === 0) {
    root.value = value;
    return;
  }
  if (root.value === NOTHING || root.value === null || root.value === DELETE) root.value = newObject();
  let node = root.value as Value;
  const shown = (n: number) =>
    path
      .slice(0, n)
      .map((s) => s.replace(/~/g, '~0').replace(/\./g, '~1'))
      .join('.');
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    const last = i === path.length - 1;
    if (isObject(node)) {
      if (last) {
        if (value === DELETE) delete node[segment];
        else node[segment] = value;
        return;
      }
      if (!Object.hasOwn(node, segment) || node[segment] === null) {
        if (value === DELETE) return;
        node[segment] = newObject();
      }
      node = node[segment];
      continue;
    }
    if (Array.isArray(node) && /^[0-9]+$/.test(segment) && Number(segment) < node.length) {
      const index = Number(segment);
      if (last) {
        if (value === DELETE) node.splice(index, 1);
        else node[index] = value;
        return;
      }
      node = node[index];
      continue;
    }
    if (value === DELETE) return;
    const culprit = shown(i);
    fail(
      culprit === ''
        ? `unable to set target path ${shown(path.length)} as the value of the root was a non-object type (${typeOf(node)})`
        : `unable to set target path ${shown(path.length)} as the value of ${culprit} was a non-object type (${typeOf(node)})`,
    );
  }
}

/** Copies a value for assignment (the input stays immutable) and refuses runaway sizes. */
function boundedClone(v: Value, ctx: Context): Value {
  const maxNodes = ctx.run.options.limits.maxValueNodes;
  let nodes = 0;
  const copy = (x: Value): Value => {
    if (++nodes > maxNodes) throw new LimitError(`value exceeds the limit of ${maxNodes} elements`);
    pace();
    if (Array.isArray(x)) return x.map(copy);
    if (isObject(x)) {
      const out = newObject();
      for (const k of Object.keys(x)) out[k] = copy(x[k]);
      return out;
    }
    return x;
  };
  const copied = copy(v);
  charge(ctx, nodes);
  return copied;
}
