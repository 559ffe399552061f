import type { Caller } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route } from '../../../lib/http/surface';
import { pageFromQuery } from '../lib/page-param';
import { pemFromBody } from '../../../lib/http/pem-body';

const READ = { name: 'certificates', level: 'read' } as const;
const WRITE = { name: 'certificates', level: 'write' } as const;

/** The certificate store of the caller's organisation; private keys are never returned. */
export const dashboardCertRoutes: Array<Route<Caller>> = [
  {
    method: 'get',
    path: '/certs',
    permission: READ,
    handle: async ({ caller, query, call }) => ({
      body: await call('certs.list', {
        org_scope: caller.org_id,
        mode: query.mode === 'detailed' ? 'detailed' : undefined,
        page: pageFromQuery(query),
      }),
    }),
  },
  {
    method: 'get',
    path: '/certs/:id',
    permission: READ,
    handle: async ({ caller, params, call }) => ({
      body: await call('certs.get', { id: params.id, org_scope: caller.org_id }),
    }),
  },
  {
    method: 'post',
    path: '/certs',
    permission: WRITE,
    anyBodyType: true,
    handle: async ({ caller, rawBody, call }) => {
      const pem = pemFromBody(rawBody());
      if (pem.trim() === '')
        throw new HttpProblem(
          400,
          'Send the certificate (PEM, with its private key if it has one) as the request body',
        );
      const created = await call('certs.create', { pem, org_scope: caller.org_id });
      return { body: ok('Certificate added', created.id, { id: created.id }) };
    },
  },
  {
    method: 'delete',
    path: '/certs/:id',
    permission: WRITE,
    handle: async ({ caller, params, call }) => {
      await call('certs.remove', { id: params.id, org_scope: caller.org_id });
      return { body: ok('Certificate deleted') };
    },
  },
];
