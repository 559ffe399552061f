import { parse, type DefinitionNode, type DirectiveNode } from 'graphql';

/** The directives of federation v1, on types and fields of a subgraph's SDL. */
export const FEDERATION_DIRECTIVES = new Set(['key', 'external', 'requires', 'provides', 'extends']);

/** What a federation v1 subgraph serves beside its own types; never part of the client schema. */
export const FEDERATION_TYPES = new Set(['_Any', '_FieldSet', '_Service', '_Entity', 'FieldSet']);

/** The root fields a federation v1 subgraph adds for the gateway. */
export const FEDERATION_ROOT_FIELDS = new Set(['_service', '_entities']);

/** Directives of other federation versions, named in errors so authors know why they are refused. */
export const NOT_FEDERATION_V1 = new Set([
  'shareable',
  'link',
  'inaccessible',
  'override',
  'tag',
  'interfaceObject',
  'composeDirective',
]);

/** The federation v1 definitions a subgraph may leave out of its SDL (as `@apollo/subgraph` prints it). */
const DEFINITIONS = `
scalar _Any
scalar _FieldSet
directive @key(fields: _FieldSet!) repeatable on OBJECT | INTERFACE
directive @external on FIELD_DEFINITION
directive @requires(fields: _FieldSet!) on FIELD_DEFINITION
directive @provides(fields: _FieldSet!) on FIELD_DEFINITION
directive @extends on OBJECT | INTERFACE
`;

/** The federation definitions, to check a subgraph's SDL on its own. */
export function federationDefinitions(): readonly DefinitionNode[] {
  return parse(DEFINITIONS, { noLocation: true }).definitions;
}

/** The names `federationDefinitions()` declares (types and directives). */
export const FEDERATION_DEFINITION_NAMES = new Set([
  '_Any',
  '_FieldSet',
  'key',
  'external',
  'requires',
  'provides',
  'extends',
]);

/** The `fields:` string of a directive (`@key(fields: "id")`), when it has one. */
export function fieldsArgument(directive: DirectiveNode): string | undefined {
  const argument = directive.arguments?.find((arg) => arg.name.value === 'fields');
  return argument?.value.kind === 'StringValue' ? argument.value.value : undefined;
}
