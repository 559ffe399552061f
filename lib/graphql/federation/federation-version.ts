import { Kind, parse, type ConstDirectiveNode, type DocumentNode } from 'graphql';

/**
 * Which federation a subgraph is written for. A Federation 2 subgraph says so in its SDL:
 * `extend schema @link(url: "https://specs.apollo.dev/federation/v2.x", import: [...])`; any
 * other SDL is Federation v1 (the only kind the reference gateway composes).
 */
export type FederationVersion = 1 | 2;

const FEDERATION_2_SPEC = /^https:\/\/specs\.apollo\.dev\/federation\/v2\./;

export function federationVersionOf(sdl: string): FederationVersion {
  // most v1 SDL never mentions @link: no parse needed to tell
  if (!sdl.includes('@link')) return 1;
  let document: DocumentNode;
  try {
    document = parse(sdl);
  } catch {
    return 1; // the v1 parser reports the syntax error in its own words
  }
  return linksFederation2Spec(document) ? 2 : 1;
}

/** Whether a parsed subgraph SDL links Federation 2 on its schema definition or extension. */
export function linksFederation2Spec(document: DocumentNode): boolean {
  return document.definitions.some(
    (definition) =>
      (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION) &&
      (definition.directives ?? []).some(linksFederation2),
  );
}

function linksFederation2(directive: ConstDirectiveNode): boolean {
  if (directive.name.value !== 'link') return false;
  const url = directive.arguments?.find((argument) => argument.name.value === 'url')?.value;
  return url?.kind === Kind.STRING && FEDERATION_2_SPEC.test(url.value);
}
