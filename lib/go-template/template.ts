import { ARITY, BUILTINS } from './builtins';
import { parseTemplate, TemplateError, type Node, type Operand, type Pipeline } from './template-parser';
import { ExecError, isMap, isTrue, printed, typeName } from './values';

export { ExecError } from './values';

/** A parsed body template; `render` gives the new body, or throws ExecError where Go's Execute fails. */
export interface BodyTemplate {
  render(data: unknown): string;
}

/** Variables in scope: a block's declarations end with the block; `$x = …` writes the nearest `$x`. */
class Scope {
  private readonly vars = new Map<string, unknown>();
  constructor(private readonly parent?: Scope) {}

  child(): Scope {
    return new Scope(this);
  }

  declare(name: string, value: unknown): void {
    this.vars.set(name, value);
  }

  assign(name: string, value: unknown): void {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      if (scope.vars.has(name)) {
        scope.vars.set(name, value);
        return;
      }
    }
    throw new ExecError(`undefined variable: ${name}`);
  }

  get(name: string): unknown {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      if (scope.vars.has(name)) return scope.vars.get(name);
    }
    throw new ExecError(`undefined variable: ${name}`);
  }
}

export function compileTemplate(source: string): BodyTemplate {
  const nodes = parseTemplate(source);
  checkFunctions(nodes);
  return {
    render(data) {
      const out: string[] = [];
      const scope = new Scope();
      scope.declare('$', data);
      run(nodes, data, scope, out);
      return out.join('');
    },
  };
}

function run(nodes: Node[], dot: unknown, scope: Scope, out: string[]): void {
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out.push(node.text);
        break;
      case 'print': {
        const value = pipeline(node.pipe, dot, scope);
        if (node.pipe.declare.length === 0) out.push(printed(value));
        break;
      }
      case 'if':
      case 'with': {
        const inner = scope.child();
        const value = pipeline(node.pipe, dot, inner);
        if (isTrue(value)) run(node.then, node.kind === 'with' ? value : dot, inner, out);
        else run(node.otherwise, dot, inner, out);
        break;
      }
      case 'range':
        runRange(node, dot, scope, out);
        break;
      case 'break':
      case 'continue':
        throw new LoopControl(node.kind);
    }
  }
}

/** `{{break}}` or `{{continue}}` on its way to the range it ends or continues. */
class LoopControl {
  constructor(readonly kind: 'break' | 'continue') {}
}

/** What range walks: a list by index, a map by sorted key, an int n as 0…n-1; nothing for nil. */
function rangeEntries(value: unknown): Array<[unknown, unknown]> {
  if (Array.isArray(value)) return value.map((item, i) => [BigInt(i), item]);
  if (isMap(value))
    return Object.keys(value)
      .sort()
      .map((key) => [key, value[key]]);
  if (typeof value === 'bigint') {
    return Array.from({ length: Math.max(Number(value), 0) }, (_, i) => [BigInt(i), BigInt(i)]);
  }
  if (value === undefined || value === null) return [];
  throw new ExecError(`range can't iterate over ${printed(value)}`);
}

function runRange(node: Extract<Node, { kind: 'range' }>, dot: unknown, scope: Scope, out: string[]): void {
  const entries = rangeEntries(evaluate(node.pipe.commands, dot, scope));
  if (entries.length === 0) return run(node.otherwise, dot, scope.child(), out);
  const [first, second] = node.pipe.declare;
  for (const [key, item] of entries) {
    const inner = scope.child();
    if (second) {
      inner.declare(first, key);
      inner.declare(second, item);
    } else if (first) inner.declare(first, item);
    try {
      run(node.then, item, inner, out);
    } catch (signal) {
      if (!(signal instanceof LoopControl)) throw signal;
      if (signal.kind === 'break') return;
    }
  }
}

function pipeline(pipe: Pipeline, dot: unknown, scope: Scope): unknown {
  const value = evaluate(pipe.commands, dot, scope);
  for (const name of pipe.declare) {
    if (pipe.assign) scope.assign(name, value);
    else scope.declare(name, value);
  }
  return value;
}

/** Each command's result is the last argument of the next one; a missing value is a nil argument. */
function evaluate(commands: Operand[], dot: unknown, scope: Scope): unknown {
  let carried: unknown[] = [];
  for (const command of commands) carried = [operand(command, dot, scope, carried)];
  return carried[0];
}

function operand(op: Operand, dot: unknown, scope: Scope, piped: unknown[] = []): unknown {
  switch (op.kind) {
    case 'literal':
      return op.value;
    case 'pipe':
      return evaluate(op.pipe.commands, dot, scope);
    case 'field': {
      const base = op.base === 'dot' ? dot : scope.get(op.base === 'root' ? '$' : op.base);
      return op.path.reduce(field, base);
    }
    case 'call':
      return call(op, dot, scope, piped);
  }
}

/** `.key` of a map; a missing key is Go's invalid value, a field of nil or of a non-map an error. */
function field(receiver: unknown, key: string): unknown {
  if (receiver === undefined) return undefined;
  if (receiver === null) throw new ExecError(`nil pointer evaluating interface {}.${key}`);
  if (!isMap(receiver)) throw new ExecError(`can't evaluate field ${key} in type ${typeName(receiver)}`);
  return receiver[key];
}

function call(op: Extract<Operand, { kind: 'call' }>, dot: unknown, scope: Scope, piped: unknown[]): unknown {
  const argument = (arg: Operand) => nilled(operand(arg, dot, scope));
  const count = op.args.length + piped.length;
  if (op.name === 'and' || op.name === 'or') {
    if (count === 0) throw new ExecError(`wrong number of args for ${op.name}: want at least 1 got 0`);
    // and/or stop at the first argument that decides the result, without evaluating the rest
    const values = [...op.args.map((arg) => () => operand(arg, dot, scope)), ...piped.map((v) => () => v)];
    let value: unknown;
    for (const next of values) {
      value = next();
      if (isTrue(value) === (op.name === 'or')) break;
    }
    return value;
  }
  const arity = ARITY[op.name];
  if (arity !== undefined && count !== arity) {
    throw new ExecError(`wrong number of args for ${op.name}: want ${arity} got ${count}`);
  }
  const args = [...op.args.map(argument), ...piped.map(nilled)];
  try {
    return BUILTINS[op.name](...args);
  } catch (err) {
    if (err instanceof ExecError) throw new ExecError(`error calling ${op.name}: ${err.message}`);
    throw err;
  }
}

/** A function receives Go's invalid value as nil. */
function nilled(value: unknown): unknown {
  return value === undefined ? null : value;
}

function checkFunctions(nodes: Node[]): void {
  const visit = (op: Operand): void => {
    if (op.kind === 'call') {
      if (!(op.name in BUILTINS) && op.name !== 'and' && op.name !== 'or') {
        throw new TemplateError(`function "${op.name}" not defined`);
      }
      op.args.forEach(visit);
    } else if (op.kind === 'pipe') op.pipe.commands.forEach(visit);
  };
  for (const node of nodes) {
    if (node.kind === 'text' || node.kind === 'break' || node.kind === 'continue') continue;
    node.pipe.commands.forEach(visit);
    if (node.kind !== 'print') {
      checkFunctions(node.then);
      checkFunctions(node.otherwise);
    }
  }
}
