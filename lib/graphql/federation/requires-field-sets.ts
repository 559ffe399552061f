import {
  Kind,
  parse,
  print,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InlineFragmentNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { linkedFederationDirective } from './federation2-declarations';

/**
 * Rewrites a Federation 2 subgraph's `@requires(fields:)` so that every inline fragment on an
 * interface or union other than the type of its position becomes fragments on the object types it
 * can match there. @theguild/federation-composition 0.27.0 follows a type condition in a required
 * field set only to object types (from `data: Foo` it reaches each object implementing `Foo`, not
 * `Bar`, an interface implementing `Foo`), so it refuses `data { ... on Bar { bar } }` as
 * unsatisfiable while composing `data { ... on Baz { bar } ... on Qux { bar } }`, the same selection.
 * Field sets without such a fragment are left as written, and are not parsed at all when they
 * contain no `... on`.
 */
export function withObjectTypeRequires(typeDefs: DocumentNode): DocumentNode {
  const requiresName = linkedFederationDirective(typeDefs, '@requires');
  let types: SubgraphTypes | undefined;
  let changed = false;
  const definitions = typeDefs.definitions.map((definition): DefinitionNode => {
    if (!hasFields(definition)) return definition;
    let fieldsChanged = false;
    const fields = definition.fields?.map((field): FieldDefinitionNode => {
      const directives = field.directives?.map((directive): ConstDirectiveNode => {
        if (directive.name.value !== requiresName) return directive;
        const fieldSet = fieldsArgument(directive);
        if (fieldSet === undefined || !TYPE_CONDITION.test(fieldSet)) return directive;
        types ??= subgraphTypes(typeDefs);
        const rewritten = objectTypeFieldSet(fieldSet, definition.name.value, types);
        if (rewritten === undefined) return directive;
        fieldsChanged = true;
        return withFieldsArgument(directive, rewritten);
      });
      return directives === field.directives ? field : { ...field, directives };
    });
    if (!fieldsChanged) return definition;
    changed = true;
    return { ...definition, fields };
  });
  return changed ? { ...typeDefs, definitions } : typeDefs;
}

const TYPE_CONDITION = /\.\.\.\s*on\b/;

/** The field set with its abstract type conditions spelled as object types, or undefined when nothing changes. */
export function objectTypeFieldSet(fieldSet: string, parentType: string, types: SubgraphTypes): string | undefined {
  let selectionSet: SelectionSetNode;
  try {
    const operation = parse(`{ ${fieldSet} }`, { noLocation: true }).definitions[0];
    if (operation?.kind !== Kind.OPERATION_DEFINITION) return undefined;
    selectionSet = operation.selectionSet;
  } catch {
    return undefined; // the composition reports the field set in its own words
  }
  const rewriter = new FieldSetRewriter(types);
  const rewritten = rewriter.selections(selectionSet.selections, parentType);
  if (!rewriter.changed || rewriter.emptied) return undefined;
  // the printer escapes newlines inside strings, so each newline left is layout
  return rewritten.map((selection) => print(selection).replace(/\n\s*/g, ' ')).join(' ');
}

/** What the rewrite needs of one subgraph's schema, read from its SDL (definitions and extensions). */
export interface SubgraphTypes {
  kinds: Map<string, 'object' | 'interface' | 'union'>;
  /** type → field → the field's named type */
  fieldTypes: Map<string, Map<string, string>>;
  /** interface or union → the types naming it (implementations, members) */
  members: Map<string, Set<string>>;
}

export function subgraphTypes(typeDefs: DocumentNode): SubgraphTypes {
  const types: SubgraphTypes = { kinds: new Map(), fieldTypes: new Map(), members: new Map() };
  const membersOf = (name: string) => {
    let members = types.members.get(name);
    if (!members) types.members.set(name, (members = new Set()));
    return members;
  };
  for (const definition of typeDefs.definitions) {
    switch (definition.kind) {
      case Kind.UNION_TYPE_DEFINITION:
      case Kind.UNION_TYPE_EXTENSION:
        types.kinds.set(definition.name.value, 'union');
        for (const member of definition.types ?? []) membersOf(definition.name.value).add(member.name.value);
        break;
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION:
      case Kind.INTERFACE_TYPE_DEFINITION:
      case Kind.INTERFACE_TYPE_EXTENSION: {
        const isObject =
          definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION;
        types.kinds.set(definition.name.value, isObject ? 'object' : 'interface');
        for (const implemented of definition.interfaces ?? [])
          membersOf(implemented.name.value).add(definition.name.value);
        let fields = types.fieldTypes.get(definition.name.value);
        if (!fields) types.fieldTypes.set(definition.name.value, (fields = new Map()));
        for (const field of definition.fields ?? []) fields.set(field.name.value, namedType(field.type));
        break;
      }
      default:
        break;
    }
  }
  return types;
}

class FieldSetRewriter {
  changed = false;
  /** a selection set left with nothing to select: the rewrite is given up and the field set kept */
  emptied = false;

  constructor(private readonly types: SubgraphTypes) {}

  /** Selections at a position of type `parentType`: abstract fragments other than on `parentType` expanded. */
  selections(selections: readonly SelectionNode[], parentType: string): SelectionNode[] {
    return selections.flatMap((selection): SelectionNode[] => {
      if (selection.kind === Kind.FIELD) return [this.field(selection, parentType)];
      if (selection.kind !== Kind.INLINE_FRAGMENT || selection.directives?.length) return [selection];
      const condition = selection.typeCondition?.name.value ?? parentType;
      if (condition === parentType || !this.isAbstract(condition)) {
        const inner = this.selections(selection.selectionSet.selections, condition);
        return [{ ...selection, selectionSet: this.selectionSet(inner) }];
      }
      const objects = this.possibleObjects(parentType, condition);
      if (objects === undefined) return [selection];
      this.changed = true;
      return objects.map((object) => objectFragment(object, this.selectionSet(this.forObject(selection, object))));
    });
  }

  /** A fragment's selections as they apply to `object`: nested fragments inlined when they match it, dropped when not. */
  private forObject(fragment: InlineFragmentNode, object: string): SelectionNode[] {
    return fragment.selectionSet.selections.flatMap((selection): SelectionNode[] => {
      if (selection.kind === Kind.FIELD) return [this.field(selection, object)];
      if (selection.kind !== Kind.INLINE_FRAGMENT || selection.directives?.length) return [selection];
      const condition = selection.typeCondition?.name.value ?? object;
      const matches = condition === object || (this.types.members.get(condition)?.has(object) ?? false);
      this.changed = true;
      return matches ? this.forObject(selection, object) : [];
    });
  }

  private field(field: SelectionNode & { kind: Kind.FIELD }, parentType: string): SelectionNode {
    if (!field.selectionSet) return field;
    const fieldType = this.types.fieldTypes.get(parentType)?.get(field.name.value);
    if (fieldType === undefined) return field;
    return { ...field, selectionSet: this.selectionSet(this.selections(field.selectionSet.selections, fieldType)) };
  }

  private selectionSet(selections: SelectionNode[]): SelectionSetNode {
    if (selections.length === 0) this.emptied = true;
    return { kind: Kind.SELECTION_SET, selections };
  }

  private isAbstract(typeName: string): boolean {
    const kind = this.types.kinds.get(typeName);
    return kind === 'interface' || kind === 'union';
  }

  /** The object types both `condition` and `parentType` can be here, in the subgraph's order; undefined when a type is unknown. */
  private possibleObjects(parentType: string, condition: string): string[] | undefined {
    const ofParent = this.objectsOf(parentType);
    const ofCondition = this.objectsOf(condition);
    if (!ofParent || !ofCondition) return undefined;
    return ofCondition.filter((object) => ofParent.includes(object));
  }

  private objectsOf(typeName: string): string[] | undefined {
    const kind = this.types.kinds.get(typeName);
    if (kind === undefined) return undefined;
    if (kind === 'object') return [typeName];
    return [...(this.types.members.get(typeName) ?? [])].filter((member) => this.types.kinds.get(member) === 'object');
  }
}

function objectFragment(object: string, selectionSet: SelectionSetNode): InlineFragmentNode {
  return {
    kind: Kind.INLINE_FRAGMENT,
    typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: object } },
    selectionSet,
  };
}

function hasFields(
  definition: DefinitionNode,
): definition is DefinitionNode & { kind: ObjectOrInterfaceKind; name: { value: string } } {
  return (
    definition.kind === Kind.OBJECT_TYPE_DEFINITION ||
    definition.kind === Kind.OBJECT_TYPE_EXTENSION ||
    definition.kind === Kind.INTERFACE_TYPE_DEFINITION ||
    definition.kind === Kind.INTERFACE_TYPE_EXTENSION
  );
}

type ObjectOrInterfaceKind =
  | Kind.OBJECT_TYPE_DEFINITION
  | Kind.OBJECT_TYPE_EXTENSION
  | Kind.INTERFACE_TYPE_DEFINITION
  | Kind.INTERFACE_TYPE_EXTENSION;

function namedType(type: FieldDefinitionNode['type']): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

function fieldsArgument(directive: ConstDirectiveNode): string | undefined {
  const value = directive.arguments?.find((argument) => argument.name.value === 'fields')?.value;
  return value?.kind === Kind.STRING ? value.value : undefined;
}

function withFieldsArgument(directive: ConstDirectiveNode, fieldSet: string): ConstDirectiveNode {
  const value = { kind: Kind.STRING, value: fieldSet } as const;
  return {
    ...directive,
    arguments: directive.arguments?.map((argument) =>
      argument.name.value === 'fields' ? { ...argument, value } : argument,
    ),
  };
}
