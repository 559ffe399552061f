import type { OrgsOpenPolicyResult } from '../../../../contracts/orgs/actions';
import type { Caller } from '../../../../contracts/users/actions';
import type { Admission } from '../../../../lib/http/surface';
import type { RoutePermission } from './route-permissions';

/**
 * The `input` document of an organisation's rules, shaped as the reference dashboard's:
 * `input.user` (with its effective permissions and group), `input.request` (method, path, query,
 * body, and the permission the endpoint needs), `input.org`, and `input.permissions`.
 */
export interface PolicyInput {
  user: {
    id: string;
    org_id: string;
    email_address: string;
    active: boolean;
    is_admin: boolean;
    user_permissions: Record<string, string>;
    group_id: string;
    group_name: string;
  };
  request: {
    method: string;
    path: string;
    query: Record<string, unknown>;
    body: unknown;
    permission: { name: string; level: string } | null;
  };
  org: OrgsOpenPolicyResult['org'];
  permissions: RoutePermission[];
}

export function policyInput(
  caller: Caller,
  admission: Admission<Caller>,
  org: PolicyInput['org'],
  permissions: RoutePermission[],
): PolicyInput {
  // An administrator always reads as one to rules written for the reference
  // (`user_permissions["IsAdmin"] == "admin"`), whichever way the caller was made one.
  const userPermissions = caller.is_admin ? { ...caller.user_permissions, IsAdmin: 'admin' } : caller.user_permissions;
  return {
    user: {
      id: caller.user_id,
      org_id: caller.org_id,
      email_address: caller.email_address,
      active: true, // inactive users are refused before any rule runs
      is_admin: caller.is_admin,
      user_permissions: userPermissions,
      group_id: caller.group_id ?? '',
      group_name: caller.group_name ?? '',
    },
    request: {
      method: admission.method,
      path: routedPath(admission.path),
      query: admission.query,
      body: admission.body(),
      permission: admission.route.permission
        ? { name: admission.route.permission.name, level: admission.route.permission.level }
        : null,
    },
    org,
    permissions,
  };
}

/**
 * The path as the router matched it: Express routes ignore case and a trailing slash, so
 * `/api/APIS/` reaches the same handler as `/api/apis`; rules see the one spelling (lower case,
 * no repeated or trailing slash) so a differently spelt request can not slip past them.
 */
export function routedPath(path: string): string {
  const single = path.toLowerCase().replace(/\/{2,}/g, '/');
  return single.length > 1 ? single.replace(/\/+$/, '') : single;
}

const SECRET_FIELD =
  /pass(word)?|secret|token|hmac|access_key|api_key|private|authori[sz]ation|credential|^key$|_key$/i;

/**
 * The input as debug mode logs it: secrets (passwords, keys, tokens, PEM blocks) replaced, a
 * body that is not JSON reduced to its length, and the endpoint list left out.
 */
export function inputForLog(input: PolicyInput): unknown {
  const body =
    typeof input.request.body === 'string' ? `[${input.request.body.length} characters]` : redact(input.request.body);
  return {
    ...input,
    request: { ...input.request, body, query: redact(input.request.query) },
    permissions: `[${input.permissions.length} endpoints]`,
  };
}

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === 'string') return value.includes('-----BEGIN') ? '[redacted]' : value;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_FIELD.test(k) && v !== '' && v !== null ? '[redacted]' : redact(v),
    ]),
  );
}
