import { parseTemplate, TemplateError, type Node, type Operand, type Pipeline } from './template-parser';
import { toXml } from './xml';

/** A parsed body template; `render` gives the new body. */
export interface BodyTemplate {
  render(data: unknown): string;
}

type Scope = Map<string, unknown>;
type Fn = (...args: unknown[]) => unknown;

/** What the template's data looks like to Go: maps sorted by key, numbers as float64. */
const FUNCTIONS: Record<string, Fn> = {
  jsonMarshal: (value) => goJson(value),
  xmlMarshal: (value) => toXml(value),
  eq: (a, ...rest) => rest.some((b) => a === b),
  ne: (a, b) => a !== b,
  lt: (a, b) => (a as number) < (b as number),
  le: (a, b) => (a as number) <= (b as number),
  gt: (a, b) => (a as number) > (b as number),
  ge: (a, b) => (a as number) >= (b as number),
  not: (a) => !truthy(a),
  and: (...args) => args.find((a) => !truthy(a)) ?? args.at(-1),
  or: (...args) => args.find((a) => truthy(a)) ?? args.at(-1),
  len: (a) => (typeof a === 'string' || Array.isArray(a) ? a.length : a && typeof a === 'object' ? Object.keys(a).length : 0),
  index: (value, ...keys) => keys.reduce((current: unknown, key) => (current && typeof current === 'object' ? (current as Record<string, unknown>)[String(key)] : undefined), value),
  print: (...args) => args.map(show).join(''),
  printf: (format, ...args) => {
    let i = 0;
    return String(format).replace(/%[sdvfq%]/g, (verb) => (verb === '%%' ? '%' : verb === '%q' ? JSON.stringify(String(args[i++])) : show(args[i++])));
  },
  urlquery: (...args) => encodeURIComponent(args.map(show).join('')),
  html: (...args) => args.map(show).join('').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
};

export function compileTemplate(source: string): BodyTemplate {
  const nodes = parseTemplate(source);
  checkFunctions(nodes);
  return {
    render(data) {
      const out: string[] = [];
      run(nodes, data, new Map([['$', data]]), out);
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
        if (node.pipe.declare.length === 0) out.push(show(value));
        break;
      }
      case 'if':
      case 'with': {
        const inner = new Map(scope);
        const value = pipeline(node.pipe, dot, inner);
        if (truthy(value)) run(node.then, node.kind === 'with' ? value : dot, inner, out);
        else run(node.otherwise, dot, scope, out);
        break;
      }
      case 'range':
        runRange(node, dot, scope, out);
        break;
    }
  }
}

function runRange(node: Extract<Node, { kind: 'range' }>, dot: unknown, scope: Scope, out: string[]): void {
  const value = evaluate(node.pipe.commands, dot, scope);
  const entries: Array<[unknown, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : value && typeof value === 'object'
      ? Object.keys(value).sort().map((key) => [key, (value as Record<string, unknown>)[key]])
      : [];
  if (entries.length === 0) return run(node.otherwise, dot, scope, out);
  const [first, second] = node.pipe.declare;
  for (const [key, item] of entries) {
    const inner = new Map(scope);
    if (second) {
      inner.set(first, key);
      inner.set(second, item);
    } else if (first) inner.set(first, item);
    run(node.then, item, inner, out);
  }
}

function pipeline(pipe: Pipeline, dot: unknown, scope: Scope): unknown {
  const value = evaluate(pipe.commands, dot, scope);
  for (const name of pipe.declare) scope.set(name, value);
  return value;
}

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
      const base = op.base === 'dot' ? dot : op.base === 'root' ? scope.get('$') : scope.get(op.base);
      return op.path.reduce((current: unknown, key) => (current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined), base);
    }
    case 'call': {
      const args = op.args.map((arg) => operand(arg, dot, scope));
      return FUNCTIONS[op.name](...args, ...piped);
    }
  }
}

function checkFunctions(nodes: Node[]): void {
  const visit = (op: Operand): void => {
    if (op.kind === 'call') {
      if (!(op.name in FUNCTIONS)) throw new TemplateError(`function "${op.name}" not defined`);
      op.args.forEach(visit);
    } else if (op.kind === 'pipe') op.pipe.commands.forEach(visit);
  };
  for (const node of nodes) {
    if (node.kind === 'text') continue;
    node.pipe.commands.forEach(visit);
    if (node.kind !== 'print') {
      checkFunctions(node.then);
      checkFunctions(node.otherwise);
    }
  }
}

function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** How Go prints a value with `{{.}}`: maps as `map[k:v]`, lists as `[a b]`, nothing as `<no value>`. */
function show(value: unknown): string {
  if (value === undefined || value === null) return '<no value>';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(show).join(' ')}]`;
  if (typeof value === 'object') return `map[${Object.keys(value).sort().map((key) => `${key}:${show((value as Record<string, unknown>)[key])}`).join(' ')}]`;
  return String(value);
}

/** Go's json.Marshal: map keys sorted, `<`, `>` and `&` escaped. */
function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
    return v;
  };
  return (JSON.stringify(sorted(value ?? null)) ?? 'null').replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}
