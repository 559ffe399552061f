import { LimitError, MappingSyntaxError } from './errors';
import { parseQuery, type Scope } from './parse-query';
import type { Context, MappingProgram, Query } from './query';
import { Cursor, lineAndColumn, ParseFailure } from './scanner';
import { runStatements, type Statement, type Target } from './statements';

/** A parsed mapping: its statements and the maps it defines, ready to execute many times. */
export interface CompiledMapping {
  readonly source: string;
  readonly statements: Statement[];
  readonly maps: Map<string, MappingProgram>;
  readonly counters: Map<string, bigint>;
}

const TOP: Scope = { named: new Set() };

export function compileMapping(text: string): CompiledMapping | MappingSyntaxError {
  const maps = new Map<string, MappingProgram>();
  let failure: ParseFailure;
  try {
    const statements = parseStatements(new Cursor(text), maps, false);
    // nothing but whitespace and comments: no query either, so no shorthand to try
    if (statements.length === 0 && maps.size === 0)
      return toSyntaxError(text, new ParseFailure(emptyMappingPosition(text), ['import', 'map', 'assignment']));
    return { source: text, statements, maps, counters: new Map() };
  } catch (err) {
    if (!(err instanceof ParseFailure)) throw err;
    failure = err;
  }
  if (!failure.fatal) {
    const single = singleRoot(text);
    if (!(single instanceof ParseFailure))
      return { source: text, statements: [single], maps: new Map(), counters: new Map() };
    if (single.pos > failure.pos || single.fatal) failure = single;
  }
  return toSyntaxError(text, failure);
}

/** where Bento reports an empty mapping: after leading whitespace, before a final unterminated comment */
function emptyMappingPosition(text: string): number {
  const c = new Cursor(text);
  c.gap();
  const lastComment = text.lastIndexOf('#');
  return lastComment >= 0 && !text.includes('\n', lastComment) ? lastComment : c.pos;
}

export function toSyntaxError(text: string, failure: ParseFailure): MappingSyntaxError {
  const { line, column } = lineAndColumn(text, failure.pos);
  return new MappingSyntaxError(line, column, describeFailure(failure));
}

function describeFailure(f: ParseFailure): string {
  const expected = [...new Set(f.expected)];
  const list =
    expected.length <= 1
      ? expected.join('')
      : `${expected.slice(0, -1).join(', ')}${expected.length > 2 ? ',' : ''} or ${expected[expected.length - 1]}`;
  if (f.fatal && expected.length === 0) return f.fatal;
  if (f.fatal === 'required') return `required: expected ${list}`;
  if (f.fatal) return `${f.fatal}: expected ${list}`;
  return `expected ${list}`;
}

/** `root = <query>` written as just the query */
function singleRoot(text: string): Statement | ParseFailure {
  const c = new Cursor(text);
  try {
    c.gap();
    const query = parseQuery(c, TOP);
    const end = c.pos;
    c.gap();
    if (!c.done) {
      const begin = text.slice(0, end).trimStart();
      const shown = begin.length > 12 ? `${begin.slice(0, 12)}...` : begin;
      return new ParseFailure(c.pos, [
        `the mapping to end here as the beginning is shorthand for \`root = ${shown}\`, but this shorthand form cannot be followed with more assignments`,
      ]);
    }
    return { kind: 'assign', line: 1, target: { kind: 'root', path: [] }, query };
  } catch (err) {
    if (err instanceof ParseFailure) return err;
    throw err;
  }
}

/** statements separated by line breaks, until the end (top level) or a closing brace */
function parseStatements(
  c: Cursor,
  maps: Map<string, MappingProgram> | null,
  inBlock: boolean,
  metaAllowed = true,
): Statement[] {
  const statements: Statement[] = [];
  c.gap();
  while (!c.done && !(inBlock && c.char() === '}')) {
    const statement = parseStatement(c, maps, metaAllowed);
    if (statement) statements.push(statement);
    const save = c.pos;
    if (!c.endOfLine()) {
      c.spaces();
      if (inBlock && c.char() === '}') break;
      throw c.failure('line break');
    }
    if (c.pos === save && !c.done) throw c.failure('line break');
    c.gap();
  }
  return statements;
}

function parseStatement(c: Cursor, maps: Map<string, MappingProgram> | null, metaAllowed: boolean): Statement | null {
  const start = c.pos;
  const line = c.lineOf(start);
  const word = c.lookWord();
  const followedBy = (w: string, chars: RegExp) => word === w && chars.test(c.text[start + w.length] ?? '');
  if (followedBy('map', /[ \t]/)) {
    if (!maps) throw c.fatal('defining maps is not allowed within this block');
    parseMapDefinition(c, maps);
    return null;
  }
  if (followedBy('import', /[ \t]/))
    throw c.fatal('importing mappings is not supported: define the map in this mapping');
  if (word === 'from' && /^from[ \t]+"/.test(c.text.slice(start)))
    throw c.fatal('importing mappings is not supported: define the map in this mapping');
  if (followedBy('let', /[ \t]/)) {
    c.pos += 3;
    c.spaces();
    const name = c.quoted() ?? c.word();
    if (name === null) throw new ParseFailure(c.pos, ['variable name'], 'required');
    if (c.char() !== ' ' && c.char() !== '\t') throw c.failure('whitespace');
    return assignment(c, line, { kind: 'var', name });
  }
  if (followedBy('meta', /[ \t=]/)) {
    c.pos += 4;
    c.spaces();
    const key = c.char() === '=' ? null : (c.quoted() ?? c.word());
    if (!metaAllowed) throw c.fatal('setting meta fields is not allowed within this block', start);
    return assignment(c, line, { kind: 'meta', key });
  }
  if (followedBy('if', /[ \t]/)) return parseIfStatement(c, line, metaAllowed);
  const path = parseTargetPath(c);
  return assignment(c, line, { kind: 'root', path: path[0] === 'root' ? path.slice(1) : path });
}

function parseTargetPath(c: Cursor): string[] {
  const first = c.word();
  if (first === null) throw c.failure('import', 'map', 'assignment');
  const path = [first];
  while (c.char() === '.') {
    c.pos++;
    const segment = c.quoted() ?? c.word();
    if (segment === null) throw c.failure('target path');
    path.push(segment);
  }
  return path;
}

function assignment(c: Cursor, line: number, target: Target): Statement {
  c.spaces();
  if (c.char() !== '=' || c.peek('==')) throw c.failure('=');
  c.pos++;
  c.spaces();
  const query = parseQuery(c, TOP);
  return { kind: 'assign', line, target, query };
}

function parseBlock(c: Cursor, metaAllowed: boolean): Statement[] {
  c.gap();
  c.expect('{', 'opening curly brace');
  const body = parseStatements(c, null, true, metaAllowed);
  c.gap();
  c.expect('}', 'closing curly brace');
  return body;
}

function parseIfStatement(c: Cursor, line: number, metaAllowed: boolean): Statement {
  c.pos += 2;
  c.spaces();
  const branches: Array<{ cond: Query | null; body: Statement[] }> = [];
  branches.push({ cond: parseQuery(c, TOP), body: parseBlock(c, metaAllowed) });
  for (;;) {
    const save = c.pos;
    c.gap();
    if (!c.eatWord('else')) {
      c.pos = save;
      break;
    }
    c.spaces();
    if (c.eatWord('if')) {
      c.spaces();
      branches.push({ cond: parseQuery(c, TOP), body: parseBlock(c, metaAllowed) });
      continue;
    }
    branches.push({ cond: null, body: parseBlock(c, metaAllowed) });
    break;
  }
  return { kind: 'if', line, branches };
}

function parseMapDefinition(c: Cursor, maps: Map<string, MappingProgram>): void {
  const start = c.pos;
  c.pos += 3;
  c.spaces();
  const name = c.quoted() ?? c.word();
  if (name === null) throw new ParseFailure(c.pos, ['map name'], 'required');
  if (maps.has(name)) throw c.fatal(`map name collision: ${name}`, start);
  c.spaces();
  c.expect('{', 'opening curly brace');
  const body = parseStatements(c, null, true, false);
  c.gap();
  c.expect('}', 'closing curly brace');
  maps.set(name, mapProgram(name, body));
}

function mapProgram(name: string, body: Statement[]): MappingProgram {
  return {
    name,
    run(ctx: Context) {
      const run = ctx.run;
      if (run.depth >= run.options.limits.maxMapDepth) {
        throw new LimitError(
          `entering map ${name} exceeded maximum allowed stacks of ${run.options.limits.maxMapDepth}, this could be due to unbounded recursion`,
        );
      }
      run.depth++;
      try {
        runStatements(body, ctx, true);
      } finally {
        run.depth--;
      }
    },
  };
}
