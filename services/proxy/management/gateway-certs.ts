import { isGwError } from '../../../lib/errors';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { pemFromBody } from '../../../lib/http/pem-body';

/** `?org_id=`: the organisation a call is limited to (unset: every organisation), as in the reference gateway. */
function orgFrom(query: Record<string, unknown>): string | undefined {
  return typeof query.org_id === 'string' ? query.org_id : undefined;
}

/** The certificate store on the gateway API (the reference gateway's `/tyk/certs`). */
export const gatewayCertRoutes: Array<Route<'gateway-admin'>> = [
  {
    method: 'get',
    path: '/certs',
    handle: async ({ query, call }) => {
      const listed = await call('certs.list', {
        org_scope: orgFrom(query),
        mode: query.mode === 'detailed' ? 'detailed' : undefined,
      });
      return { body: { certs: listed.certs } };
    },
  },
  {
    method: 'get',
    path: '/certs/:id',
    handle: async ({ params, query, call }) => {
      // A comma list gives a list, as in the reference gateway.
      const ids = params.id.split(',').filter(Boolean);
      const metas = await Promise.all(ids.map((id) => call('certs.get', { id, org_scope: orgFrom(query) })));
      return { body: ids.length === 1 ? metas[0] : metas };
    },
  },
  {
    method: 'post',
    path: '/certs',
    handle: async ({ query, rawBody, call }) => {
      const pem = pemFromBody(rawBody());
      if (pem.trim() === '')
        throw new HttpProblem(
          400,
          'Send the certificate (PEM, with its private key if it has one) as the request body',
        );
      const created = await call('certs.create', { pem, org_id: orgFrom(query) ?? '' });
      return { body: { id: created.id, status: 'ok', message: 'Certificate added' } };
    },
  },
  {
    method: 'delete',
    path: '/certs/:id',
    handle: async ({ params, query, call }) => {
      try {
        await call('certs.remove', { id: params.id, org_scope: orgFrom(query) });
      } catch (err) {
        // Deleting what is not there (or not in `?org_id=`'s organisation) leaves it not there:
        // 200, as the reference answers and its API document lists, saying nothing of other tenants.
        if (!isGwError(err, 'GW_ERR_CERTS_NOT_FOUND')) throw err;
      }
      return { body: { status: 'ok', message: 'removed' } };
    },
  },
];
