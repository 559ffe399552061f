import { ApisErrors } from '../../errors';
import { GATEWAY_EXTENSION, pointer, type OasDocument } from './document';
import { on, type GatewayExtension } from './gateway-extension';
import type { OasOperation } from './operations';

/**
 * The operations whose own `security` opens them to anonymous callers (`security: []`, or only
 * the empty requirement `{}`): the classic form's `ignored` endpoints. An operation's `security`
 * that names schemes is accepted only where it asks for what the API already enforces (the
 * document's root `security`, or else every enabled scheme together); the classic form has one
 * authentication for the whole API, so another combination is refused with its JSON pointer
 * rather than accepted and not enforced.
 */
export function operationsWithoutSecurity(document: OasDocument, ops: OasOperation[]): Set<OasOperation> {
  const open = new Set<OasOperation>();
  const problems: string[] = [];
  const declared = document.components?.securitySchemes ?? {};
  const apiWide = normalise((document as { security?: unknown }).security ?? enabledRequirement(document));
  for (const op of ops) {
    const security = op.operation.security;
    if (security === undefined) continue;
    const at = pointer('paths', op.path, op.method.toLowerCase(), 'security');
    if (!Array.isArray(security) || security.some((r) => typeof r !== 'object' || r === null || Array.isArray(r))) {
      problems.push(`${at}: must be a list of security requirement objects`);
      continue;
    }
    const requirements = security as Array<Record<string, unknown>>;
    if (requirements.every((r) => Object.keys(r).length === 0)) {
      open.add(op);
      continue;
    }
    requirements.forEach((r, i) => {
      for (const name of Object.keys(r))
        if (!Object.prototype.hasOwnProperty.call(declared, name))
          problems.push(`${at}/${i}: no security scheme "${name}" in components.securitySchemes`);
    });
    if (normalise(requirements) !== apiWide) {
      problems.push(
        `${at}: an operation can only drop authentication (security: []) or ask for the API's own security; gw applies one authentication to the whole API, so this combination can not be enforced`,
      );
    }
  }
  if (problems.length > 0) throw ApisErrors.invalidOas(problems);
  return open;
}

/** Without a root `security`, the API asks for every enabled scheme together (the classic form chains them). */
function enabledRequirement(document: OasDocument): Array<Record<string, unknown>> {
  const auth = (document[GATEWAY_EXTENSION] as GatewayExtension).server.authentication;
  if (!on(auth)) return [];
  const names = Object.entries(auth!.securitySchemes ?? {})
    .filter(([, settings]) => on(settings))
    .map(([name]) => name);
  return names.length === 0 ? [] : [Object.fromEntries(names.map((name) => [name, []]))];
}

/** A requirement list as comparable text: alternatives as sorted scheme-name sets (scopes are not compared). */
function normalise(requirements: unknown): string {
  if (!Array.isArray(requirements)) return '[]';
  const sets = requirements.map((r) =>
    Object.keys((r ?? {}) as object)
      .sort()
      .join('+'),
  );
  return JSON.stringify([...new Set(sets)].sort());
}
