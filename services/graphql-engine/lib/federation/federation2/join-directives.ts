import {
  Kind,
  parse,
  print,
  type ConstDirectiveNode,
  type ConstValueNode,
  type DefinitionNode,
  type FieldDefinitionNode,
} from 'graphql';

/** One `@join__type`: a subgraph (its `join__Graph` value) declaring the type, with one of its keys. */
export interface JoinTypeEntry {
  graph: string;
  key?: string;
  resolvable: boolean;
  extension: boolean;
  isInterfaceObject: boolean;
}

/** One `@join__field`: how one subgraph declares the field. */
export interface JoinFieldEntry {
  /** absent when the directive names no subgraph */
  graph?: string;
  requires?: string;
  provides?: string;
  external: boolean;
  override?: string;
  usedOverridden: boolean;
  /** the field's type in that subgraph, when composition recorded it */
  type?: string;
}

export interface JoinField {
  name: string;
  /** the field's type in the supergraph, printed */
  type: string;
  /** the named type under lists and non-null */
  namedType: string;
  /** empty when every subgraph declaring the parent type resolves the field */
  entries: JoinFieldEntry[];
}

export interface JoinType {
  name: string;
  kind: 'object' | 'interface' | 'union' | 'enum' | 'input' | 'scalar';
  /** one entry per `@join__type` (a subgraph with two keys has two) */
  entries: JoinTypeEntry[];
  fields: JoinField[];
  /** `join__Graph` value → interfaces the type implements there (`@join__implements`) */
  implementsIn: Map<string, Set<string>>;
  /** `join__Graph` value → union members there (`@join__unionMember`) */
  membersIn: Map<string, Set<string>>;
  /** enum values with `@join__enumValue`: value → the graphs declaring it */
  enumValuesIn: Map<string, Set<string>>;
  /** enum values without `@join__enumValue` */
  enumValues: string[];
}

/** A supergraph SDL's `join__` directives, read once: what every subgraph declares. */
export interface JoinSupergraph {
  /** `join__Graph` value → the subgraph's entry name (`@join__graph(name:)`) */
  graphNames: Map<string, string>;
  /** spec URLs the schema `@link`s */
  links: string[];
  /** names of directives used anywhere outside the `join__`/`link__` machinery */
  otherDirectives: Set<string>;
  types: Map<string, JoinType>;
}

const MACHINERY = /^(join__|link__)/;
const KINDS: Partial<Record<string, JoinType['kind']>> = {
  [Kind.OBJECT_TYPE_DEFINITION]: 'object',
  [Kind.INTERFACE_TYPE_DEFINITION]: 'interface',
  [Kind.UNION_TYPE_DEFINITION]: 'union',
  [Kind.ENUM_TYPE_DEFINITION]: 'enum',
  [Kind.INPUT_OBJECT_TYPE_DEFINITION]: 'input',
  [Kind.SCALAR_TYPE_DEFINITION]: 'scalar',
};

export function readJoinSupergraph(supergraphSdl: string): JoinSupergraph {
  const result: JoinSupergraph = { graphNames: new Map(), links: [], otherDirectives: new Set(), types: new Map() };
  for (const definition of parse(supergraphSdl, { noLocation: true }).definitions) {
    if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION) {
      for (const directive of definition.directives ?? [])
        if (directive.name.value === 'link') result.links.push(String(argument(directive, 'url') ?? ''));
      continue;
    }
    if (!('name' in definition) || !definition.name) continue;
    const name = definition.name.value;
    if (definition.kind === Kind.ENUM_TYPE_DEFINITION && name === 'join__Graph') {
      for (const value of definition.values ?? []) {
        const graph = value.directives?.find((d) => d.name.value === 'join__graph');
        const entryName = graph && argument(graph, 'name');
        if (typeof entryName === 'string') result.graphNames.set(value.name.value, entryName);
      }
      continue;
    }
    const kind = KINDS[definition.kind];
    if (!kind || MACHINERY.test(name)) continue;
    collectOtherDirectives(definition, result.otherDirectives);
    result.types.set(name, readType(definition, name, kind));
  }
  return result;
}

function readType(definition: DefinitionNode, name: string, kind: JoinType['kind']): JoinType {
  const type: JoinType = {
    name,
    kind,
    entries: [],
    fields: [],
    implementsIn: new Map(),
    membersIn: new Map(),
    enumValuesIn: new Map(),
    enumValues: [],
  };
  const node = definition as {
    directives?: readonly ConstDirectiveNode[];
    fields?: readonly FieldDefinitionNode[];
    values?: ReadonlyArray<{ name: { value: string }; directives?: readonly ConstDirectiveNode[] }>;
  };
  for (const directive of node.directives ?? []) {
    const graph = String(argument(directive, 'graph') ?? '');
    if (directive.name.value === 'join__type') {
      const key = argument(directive, 'key');
      type.entries.push({
        graph,
        key: typeof key === 'string' ? key : undefined,
        resolvable: argument(directive, 'resolvable') !== false,
        extension: argument(directive, 'extension') === true,
        isInterfaceObject: argument(directive, 'isInterfaceObject') === true,
      });
    } else if (directive.name.value === 'join__implements') {
      addTo(type.implementsIn, graph, String(argument(directive, 'interface')));
    } else if (directive.name.value === 'join__unionMember') {
      addTo(type.membersIn, graph, String(argument(directive, 'member')));
    }
  }
  if (kind === 'object' || kind === 'interface') type.fields = (node.fields ?? []).map((field) => readField(field));
  if (kind === 'enum')
    for (const value of node.values ?? []) {
      const declared = (value.directives ?? []).filter((d) => d.name.value === 'join__enumValue');
      if (declared.length === 0) type.enumValues.push(value.name.value);
      for (const directive of declared)
        addTo(type.enumValuesIn, value.name.value, String(argument(directive, 'graph')));
    }
  return type;
}

function readField(field: FieldDefinitionNode): JoinField {
  let named = field.type;
  while (named.kind !== Kind.NAMED_TYPE) named = named.type;
  const entries: JoinFieldEntry[] = (field.directives ?? [])
    .filter((directive) => directive.name.value === 'join__field')
    .map((directive) => {
      const text = (name: string) => {
        const value = argument(directive, name);
        return typeof value === 'string' ? value : undefined;
      };
      return {
        graph: text('graph'),
        requires: text('requires'),
        provides: text('provides'),
        external: argument(directive, 'external') === true,
        override: text('override'),
        usedOverridden: argument(directive, 'usedOverridden') === true,
        type: text('type'),
      };
    });
  return { name: field.name.value, type: print(field.type), namedType: named.name.value, entries };
}

/** A directive argument as a plain value: enum values and strings as strings, booleans as booleans. */
function argument(directive: ConstDirectiveNode, name: string): string | boolean | undefined {
  const value: ConstValueNode | undefined = directive.arguments?.find((a) => a.name.value === name)?.value;
  if (!value) return undefined;
  if (value.kind === Kind.STRING || value.kind === Kind.ENUM) return value.value;
  if (value.kind === Kind.BOOLEAN) return value.value;
  return print(value);
}

function collectOtherDirectives(node: unknown, into: Set<string>): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectOtherDirectives(item, into);
    return;
  }
  const record = node as { kind?: string; name?: { value: string } };
  if (record.kind === Kind.DIRECTIVE && record.name && !MACHINERY.test(record.name.value)) into.add(record.name.value);
  for (const value of Object.values(node)) if (value && typeof value === 'object') collectOtherDirectives(value, into);
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  if (!map.has(key)) map.set(key, new Set());
  map.get(key)!.add(value);
}
