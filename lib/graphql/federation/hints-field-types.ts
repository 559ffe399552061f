import {
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  print,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLSchema,
  type TypeNode,
} from 'graphql';
import { subgraphWords, type CompositionHint } from './hint-codes';
import type { FieldView, SubgraphIndex } from './hint-index';

interface Declared {
  subgraph: string;
  field: FieldView;
}

/**
 * INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE: a field resolved (or an input field declared) by
 * several subgraphs whose types differ in nullability, or by an interface or union and one of its
 * members; the supergraph takes the more general output type and the stricter input type.
 * `@external` declarations are not resolutions and are left out.
 */
export function fieldTypeHints(index: SubgraphIndex, supergraph: GraphQLSchema): CompositionHint[] {
  const hints: CompositionHint[] = [];
  forEachSharedField(index, (type, field, declared) => {
    const used = supergraphField(supergraph, type, field)?.type.toString();
    const related = (a: string, b: string) =>
      index.abstractTypesOf.get(a)?.has(b) === true || index.abstractTypesOf.get(b)?.has(a) === true;
    const differing = differingTypes(declared, (decl) => decl.field.type, used, related);
    if (!differing || !used) return;
    hints.push({
      code: 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE',
      message: `Type of field "${type}.${field}" is inconsistent but compatible across subgraphs: the supergraph uses type "${used}"${fromWords(differing.using)}, but ${differing.others}`,
      subgraphs: declared.map((decl) => decl.subgraph),
      type,
      field,
    });
  });
  return hints;
}

/**
 * INCONSISTENT_BUT_COMPATIBLE_ARGUMENT_TYPE (an argument's type differs in nullability; the
 * supergraph takes the non-null one) and INCONSISTENT_DEFAULT_VALUE_PRESENCE (an argument or
 * input field has a default in some subgraphs only; a subgraph without it sees no value).
 */
export function argumentHints(index: SubgraphIndex, supergraph: GraphQLSchema): CompositionHint[] {
  const hints: CompositionHint[] = [];
  forEachSharedField(index, (type, field, declared, kind) => {
    if (kind === 'input') {
      const inputField = supergraphField(supergraph, type, field);
      const hint = defaultHint(
        `Input field "${type}.${field}"`,
        declared,
        inputField && !('args' in inputField) ? inputField : undefined,
      );
      if (hint) hints.push({ ...hint, type, field });
      return;
    }
    const names = new Set(declared.flatMap((decl) => [...decl.field.args.keys()]));
    for (const name of names) {
      const args: Declared[] = declared.flatMap(({ subgraph, field: view }) => {
        const arg = view.args.get(name);
        return arg
          ? [{ subgraph, field: { args: new Map(), external: false, type: arg.type, defaultValue: arg.defaultValue } }]
          : [];
      });
      if (args.length < 2) continue;
      const coordinate = `${type}.${field}(${name}:)`;
      const owner = supergraphField(supergraph, type, field);
      const used = owner && 'args' in owner ? owner.args.find((arg) => arg.name === name) : undefined;
      const differing = differingTypes(
        args,
        (decl) => decl.field.type,
        used?.type.toString(),
        () => false,
      );
      if (differing && used)
        hints.push({
          code: 'INCONSISTENT_BUT_COMPATIBLE_ARGUMENT_TYPE',
          message: `Type of argument "${coordinate}" is inconsistent but compatible across subgraphs: the supergraph uses type "${used.type.toString()}"${fromWords(differing.using)}, but ${differing.others}`,
          subgraphs: args.map((arg) => arg.subgraph),
          type,
          field,
        });
      const hint = defaultHint(`Argument "${coordinate}"`, args, used);
      if (hint) hints.push({ ...hint, type, field });
    }
  });
  return hints;
}

/** Calls `visit` for every field, input field and argument holder declared (not `@external`) by two subgraphs or more. */
function forEachSharedField(
  index: SubgraphIndex,
  visit: (type: string, field: string, declared: Declared[], kind: 'object' | 'interface' | 'input') => void,
): void {
  for (const [type, bySubgraph] of index.types) {
    const byField = new Map<string, Declared[]>();
    let kind: 'object' | 'interface' | 'input' | undefined;
    for (const [subgraph, view] of bySubgraph) {
      if (view.kind !== 'object' && view.kind !== 'interface' && view.kind !== 'input') continue;
      kind = view.kind;
      for (const [name, field] of view.fields) {
        if (field.external || !field.type) continue;
        const list = byField.get(name);
        if (list) list.push({ subgraph, field });
        else byField.set(name, [{ subgraph, field }]);
      }
    }
    if (kind) for (const [field, declared] of byField) if (declared.length >= 2) visit(type, field, declared, kind);
  }
}

/**
 * When the declarations' types differ but are compatible: the subgraphs whose type the
 * supergraph uses, and the others in words (`subgraph "a" declares "String!"`).
 */
function differingTypes(
  declared: Declared[],
  typeOf: (decl: Declared) => TypeNode | undefined,
  used: string | undefined,
  related: (a: string, b: string) => boolean,
): { using: string[]; others: string } | undefined {
  const types = declared.map(typeOf);
  const printed = types.map((type) => (type ? print(type) : ''));
  if (new Set(printed).size < 2) return undefined;
  if (!types.every((type) => type && compatible(type, types[0]!, related))) return undefined;
  const others = new Map<string, string[]>();
  const using: string[] = [];
  declared.forEach((decl, at) => {
    if (printed[at] === used) using.push(decl.subgraph);
    else others.set(printed[at], [...(others.get(printed[at]) ?? []), decl.subgraph]);
  });
  const words = [...others].map(
    ([type, subgraphs]) => `${subgraphWords(subgraphs)} declare${subgraphs.length === 1 ? 's' : ''} "${type}"`,
  );
  return { using, others: words.join('; ') };
}

/** Same shape of lists; at the bottom the same named type, or an abstract type and its member. */
function compatible(a: TypeNode, b: TypeNode, related: (a: string, b: string) => boolean): boolean {
  const x = a.kind === Kind.NON_NULL_TYPE ? a.type : a;
  const y = b.kind === Kind.NON_NULL_TYPE ? b.type : b;
  if (x.kind === Kind.LIST_TYPE || y.kind === Kind.LIST_TYPE)
    return x.kind === Kind.LIST_TYPE && y.kind === Kind.LIST_TYPE && compatible(x.type, y.type, related);
  return x.name.value === y.name.value || related(x.name.value, y.name.value);
}

function defaultHint(
  what: string,
  declared: Declared[],
  used: GraphQLArgument | GraphQLInputField | undefined,
): Omit<CompositionHint, 'type' | 'field'> | undefined {
  const withDefault = declared.filter((decl) => decl.field.defaultValue);
  if (withDefault.length === 0 || withDefault.length === declared.length) return undefined;
  const without = declared.filter((decl) => !decl.field.defaultValue).map((decl) => decl.subgraph);
  const given = withDefault.map((decl) => `subgraph "${decl.subgraph}" gives ${print(decl.field.defaultValue!)}`);
  const supergraphDefault = used?.astNode?.defaultValue;
  return {
    code: 'INCONSISTENT_DEFAULT_VALUE_PRESENCE',
    message: `${what} has a default value in only some subgraphs: ${given.join(', ')}, but ${subgraphWords(without)} give${without.length === 1 ? 's' : ''} none; the supergraph ${supergraphDefault ? `uses the default ${print(supergraphDefault)}` : 'has no default'}`,
    subgraphs: declared.map((decl) => decl.subgraph),
  };
}

function fromWords(subgraphs: string[]): string {
  return subgraphs.length > 0 ? ` (as in ${subgraphWords(subgraphs)})` : '';
}

function supergraphField(
  supergraph: GraphQLSchema,
  type: string,
  field: string,
): GraphQLField<unknown, unknown> | GraphQLInputField | undefined {
  const named = supergraph.getType(type);
  if (!isObjectType(named) && !isInterfaceType(named) && !isInputObjectType(named)) return undefined;
  return named.getFields()[field];
}
