import { MCP_PRIMITIVE_TYPES, type AccessDefinition } from '../../../contracts/keys/session';
import { compileTenantPattern } from '../../../lib/patterns/tenant-pattern';
import { KeysErrors } from '../errors';

const KINDS = ['tools', 'resources', 'prompts'];
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * `mcp_access_rights` and `mcp_primitives` of one access right, checked when a key or policy is
 * saved: a pattern that does not compile, or a limit of an unknown primitive type, would
 * otherwise allow or limit nothing without a word. Each refusal names the field.
 */
export function assertMcpAccessValid(apiId: string, access: AccessDefinition): void {
  const at = `access_rights.${apiId}`;
  assertAccessRights(`${at}.mcp_access_rights`, access.mcp_access_rights);
  assertPrimitiveLimits(`${at}.mcp_primitives`, access.mcp_primitives);
}

function assertAccessRights(at: string, rights: unknown): void {
  if (rights === undefined || rights === null) return;
  if (!isRecord(rights)) throw KeysErrors.invalid(`${at} must be an object with tools, resources and prompts`);
  for (const [kind, lists] of Object.entries(rights)) {
    if (!KINDS.includes(kind))
      throw KeysErrors.invalid(`${at}.${kind} is not a primitive kind: use tools, resources or prompts`);
    if (lists === undefined || lists === null) continue;
    if (!isRecord(lists)) throw KeysErrors.invalid(`${at}.${kind} must be an object with allowed and blocked`);
    for (const [name, patterns] of Object.entries(lists)) {
      if (name !== 'allowed' && name !== 'blocked')
        throw KeysErrors.invalid(`${at}.${kind}.${name} is not a known field: use allowed or blocked`);
      if (patterns === undefined || patterns === null) continue;
      if (!Array.isArray(patterns)) throw KeysErrors.invalid(`${at}.${kind}.${name} must be a list of patterns`);
      patterns.forEach((pattern, i) => assertPatternCompiles(`${at}.${kind}.${name}[${i}]`, pattern));
    }
  }
}

/** Patterns are matched anchored (`^…$`), as the runtime matches them. */
function assertPatternCompiles(at: string, pattern: unknown): void {
  if (typeof pattern !== 'string' || pattern === '') throw KeysErrors.invalid(`${at} must be a non-empty string`);
  try {
    compileTenantPattern(`^(?:${pattern})$`);
  } catch (err) {
    throw KeysErrors.invalid(`${at} is not a valid pattern: ${(err as Error).message}`);
  }
}

function assertPrimitiveLimits(at: string, limits: unknown): void {
  if (limits === undefined || limits === null) return;
  if (!Array.isArray(limits)) throw KeysErrors.invalid(`${at} must be a list`);
  limits.forEach((entry: unknown, i) => {
    const here = `${at}[${i}]`;
    if (!isRecord(entry)) throw KeysErrors.invalid(`${here} must be an object with type, name and limit`);
    if (!(MCP_PRIMITIVE_TYPES as readonly unknown[]).includes(entry.type))
      throw KeysErrors.invalid(
        `${here}.type: invalid MCP primitive type ${JSON.stringify(entry.type)}: must be one of tool, resource, prompt`,
      );
    if (typeof entry.name !== 'string' || entry.name === '')
      throw KeysErrors.invalid(`${here}.name must be a non-empty string`);
    const limit = entry.limit;
    if (!isRecord(limit)) throw KeysErrors.invalid(`${here}.limit must be an object with rate and per`);
    for (const field of ['rate', 'per'])
      if (!isNumber(limit[field]) || limit[field] < 0)
        throw KeysErrors.invalid(`${here}.limit.${field} must be a number of 0 or more`);
    for (const field of ['quota_max', 'quota_renewal_rate'])
      if (limit[field] !== undefined && !isNumber(limit[field]))
        throw KeysErrors.invalid(`${here}.limit.${field} must be a number`);
  });
}
