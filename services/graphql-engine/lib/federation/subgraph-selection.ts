import { print, visit, type ArgumentNode, type DirectiveNode, type VariableDefinitionNode } from 'graphql';
import { addedAlias, type FieldSetNode } from './field-set';

/** A field of a query sent to one subgraph. */
export interface SubgraphField {
  kind: 'field';
  responseKey: string;
  name: string;
  arguments: readonly ArgumentNode[];
  directives: readonly DirectiveNode[];
  selections?: SubgraphSelection[];
}

export interface SubgraphFragment {
  kind: 'fragment';
  typeCondition: string;
  directives: readonly DirectiveNode[];
  selections: SubgraphSelection[];
}

export type SubgraphSelection = SubgraphField | SubgraphFragment;

const NONE: readonly never[] = [];

/** Adds a field set (key or required fields) to a subgraph selection, reusing fields already there. */
export function addFieldSet(selections: SubgraphSelection[], set: FieldSetNode[]): void {
  for (const node of set) {
    const field = addPlainField(selections, node.name, node.children.length > 0);
    if (node.children.length > 0) addFieldSet(field.selections!, node.children);
  }
}

/**
 * The field `name` without arguments or directives in a selection, added when missing (with
 * `__typename` when `nested`); the client's own selection of it is reused.
 */
export function addPlainField(selections: SubgraphSelection[], name: string, nested: boolean): SubgraphField {
  const plain = (s: SubgraphSelection): s is SubgraphField =>
    s.kind === 'field' && s.name === name && s.arguments.length === 0 && s.directives.length === 0;
  let field = selections.find(
    (s): s is SubgraphField => plain(s) && (s.responseKey === name || s.responseKey === addedAlias(name)),
  );
  if (!field) {
    // the client may use this name as an alias of another field: the added one then gets a key of its own
    const taken = selections.some((s) => s.kind === 'field' && s.responseKey === name);
    field = {
      kind: 'field',
      responseKey: taken ? addedAlias(name) : name,
      name,
      arguments: NONE,
      directives: NONE,
      selections: nested ? [] : undefined,
    };
    selections.push(field);
  }
  if (nested) addTypename(field.selections!);
  return field;
}

export function addTypename(selections: SubgraphSelection[]): void {
  if (!selections.some((s) => s.kind === 'field' && s.responseKey === '__typename' && s.directives.length === 0)) {
    selections.unshift({
      kind: 'field',
      responseKey: '__typename',
      name: '__typename',
      arguments: NONE,
      directives: NONE,
    });
  }
}

/** The `... on Type { }` fragment of a selection, created when missing. */
export function fragmentOn(selections: SubgraphSelection[], typeCondition: string): SubgraphSelection[] {
  let fragment = selections.find(
    (s): s is SubgraphFragment =>
      s.kind === 'fragment' && s.typeCondition === typeCondition && s.directives.length === 0,
  );
  if (!fragment) {
    fragment = { kind: 'fragment', typeCondition, directives: NONE, selections: [] };
    selections.push(fragment);
  }
  return fragment.selections;
}

export function printSelections(selections: SubgraphSelection[]): string {
  return `{ ${selections.map(printSelection).join(' ')} }`;
}

function printSelection(selection: SubgraphSelection): string {
  const directives = selection.directives.length > 0 ? ` ${selection.directives.map((d) => print(d)).join(' ')}` : '';
  if (selection.kind === 'fragment')
    return `... on ${selection.typeCondition}${directives} ${printSelections(selection.selections)}`;
  const alias = selection.responseKey !== selection.name ? `${selection.responseKey}: ` : '';
  const args = selection.arguments.length > 0 ? `(${selection.arguments.map((a) => print(a)).join(', ')})` : '';
  const children = selection.selections ? ` ${printSelections(selection.selections)}` : '';
  return `${alias}${selection.name}${args}${directives}${children}`;
}

/** The names of the operation variables a selection uses. */
export function variablesUsed(selections: SubgraphSelection[], into = new Set<string>()): Set<string> {
  for (const selection of selections) {
    const nodes = selection.kind === 'field' ? [...selection.arguments, ...selection.directives] : selection.directives;
    for (const node of nodes) {
      visit(node, {
        Variable(variable) {
          into.add(variable.name.value);
        },
      });
    }
    if (selection.selections) variablesUsed(selection.selections, into);
  }
  return into;
}

/** `($a: Int, $b: String = "x")` for the variables a subgraph query uses, `extra` first. */
export function printVariableDefinitions(
  definitions: readonly VariableDefinitionNode[],
  used: Set<string>,
  extra: string[] = [],
): string {
  const printed = [...extra, ...definitions.filter((d) => used.has(d.variable.name.value)).map((d) => print(d))];
  return printed.length > 0 ? `(${printed.join(', ')})` : '';
}
