import { extractLinkImplementations } from '@theguild/federation-composition';
import { Kind, print, type ConstDirectiveNode, type DocumentNode, type FieldDefinitionNode } from 'graphql';

/** A subgraph as composed: its name and parsed SDL. */
export interface ComposedService {
  name: string;
  typeDefs: DocumentNode;
}

/** One subgraph's declaration of a field of an object type or interface. */
export interface FieldDeclaration {
  /** as written there: `Book`, `[Media!]!` */
  type: string;
  external: boolean;
  requires?: string;
  provides?: string;
}

/** What the subgraphs declare, as the supergraph repairs need it. */
export interface SubgraphDeclarations {
  /** by coordinate (`User.name`), each declaring subgraph's declaration */
  fields: Map<string, Map<string, FieldDeclaration>>;
  /** every union and interface named in a subgraph, with the members or implementations any subgraph gives it */
  possibleTypes: Map<string, Set<string>>;
}

const FEDERATION = 'https://specs.apollo.dev/federation';

/** The field declarations and abstract types of every subgraph, federation directives read under their linked names. */
export function subgraphDeclarations(services: readonly ComposedService[]): SubgraphDeclarations {
  const fields = new Map<string, Map<string, FieldDeclaration>>();
  const possibleTypes = new Map<string, Set<string>>();
  const membersOf = (abstractType: string) => {
    let members = possibleTypes.get(abstractType);
    if (!members) possibleTypes.set(abstractType, (members = new Set()));
    return members;
  };
  for (const service of services) {
    const names = {
      external: linkedFederationDirective(service.typeDefs, '@external'),
      requires: linkedFederationDirective(service.typeDefs, '@requires'),
      provides: linkedFederationDirective(service.typeDefs, '@provides'),
    };
    for (const definition of service.typeDefs.definitions) {
      switch (definition.kind) {
        case Kind.UNION_TYPE_DEFINITION:
        case Kind.UNION_TYPE_EXTENSION:
          for (const member of definition.types ?? []) membersOf(definition.name.value).add(member.name.value);
          membersOf(definition.name.value);
          break;
        case Kind.INTERFACE_TYPE_DEFINITION:
        case Kind.INTERFACE_TYPE_EXTENSION:
        case Kind.OBJECT_TYPE_DEFINITION:
        case Kind.OBJECT_TYPE_EXTENSION:
          if (definition.kind === Kind.INTERFACE_TYPE_DEFINITION || definition.kind === Kind.INTERFACE_TYPE_EXTENSION)
            membersOf(definition.name.value);
          for (const implemented of definition.interfaces ?? [])
            membersOf(implemented.name.value).add(definition.name.value);
          for (const field of definition.fields ?? []) {
            const coordinate = `${definition.name.value}.${field.name.value}`;
            let bySubgraph = fields.get(coordinate);
            if (!bySubgraph) fields.set(coordinate, (bySubgraph = new Map()));
            bySubgraph.set(service.name, declarationOf(field, names));
          }
          break;
        default:
          break;
      }
    }
  }
  return { fields, possibleTypes };
}

/** A federation directive's name as the subgraph links it, without `@`: `requires`, `needs` (`as: "@needs"`), `federation__requires`. */
export function linkedFederationDirective(typeDefs: DocumentNode, directive: `@${string}`): string {
  return extractLinkImplementations(typeDefs).resolveImportName(FEDERATION, directive);
}

function declarationOf(
  field: FieldDefinitionNode,
  names: { external: string; requires: string; provides: string },
): FieldDeclaration {
  const directive = (name: string) => field.directives?.find((d) => d.name.value === name);
  return {
    type: print(field.type),
    external: directive(names.external) !== undefined,
    requires: fieldsArgument(directive(names.requires)),
    provides: fieldsArgument(directive(names.provides)),
  };
}

function fieldsArgument(directive: ConstDirectiveNode | undefined): string | undefined {
  const value = directive?.arguments?.find((a) => a.name.value === 'fields')?.value;
  return value?.kind === Kind.STRING ? value.value : undefined;
}
