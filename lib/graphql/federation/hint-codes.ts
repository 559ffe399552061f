/**
 * The hints gw gives about a supergraph that composes: things that work but are likely
 * unintended, named after Apollo Federation's composition hint codes.
 */
export type HintCode =
  /** a field's type differs across subgraphs in nullability or by an abstract type and its member */
  | 'INCONSISTENT_BUT_COMPATIBLE_FIELD_TYPE'
  /** an argument's type differs across subgraphs in nullability */
  | 'INCONSISTENT_BUT_COMPATIBLE_ARGUMENT_TYPE'
  /** an argument or input field has a default value in some subgraphs and none in others */
  | 'INCONSISTENT_DEFAULT_VALUE_PRESENCE'
  /** an object type has a `@key` in some of the subgraphs declaring it, not in others */
  | 'INCONSISTENT_ENTITY'
  /** a type, field or enum value has different descriptions in different subgraphs */
  | 'INCONSISTENT_DESCRIPTION'
  /** `@override(from:)` names a subgraph that no longer declares the field */
  | 'OVERRIDE_DIRECTIVE_CAN_BE_REMOVED'
  /** `@override(from:)` names no subgraph of the supergraph */
  | 'FROM_SUBGRAPH_DOES_NOT_EXIST'
  /** an enum no field, argument or input field uses */
  | 'UNUSED_ENUM_TYPE'
  /** an executable directive defined in some subgraphs, not in all */
  | 'INCONSISTENT_EXECUTABLE_DIRECTIVE_PRESENCE';

export interface CompositionHint {
  code: HintCode;
  /** the whole hint, naming the subgraphs, the type and the field */
  message: string;
  /** the subgraphs involved, by their name in the supergraph */
  subgraphs: string[];
  type?: string;
  field?: string;
}

/** `subgraph "a"`, `subgraphs "a" and "b"`, `subgraphs "a", "b" and "c"` */
export function subgraphWords(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  if (quoted.length <= 1) return `subgraph ${quoted[0] ?? ''}`;
  return `subgraphs ${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}
