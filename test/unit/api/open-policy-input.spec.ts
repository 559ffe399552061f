import { strict as assert } from 'node:assert';
import type { Caller } from '../../../contracts/users/actions';
import type { Route } from '../../../lib/http/surface';
import { inputForLog, policyInput } from '../../../services/api/lib/open-policy/policy-input';
import { routePermissions } from '../../../services/api/lib/open-policy/route-permissions';
import { PolicyProgram } from '../../../lib/rego/policy';

const route = (
  method: Route<Caller>['method'],
  path: string,
  permission?: Route<Caller>['permission'],
): Route<Caller> => ({ method, path, permission, handle: async () => ({ body: null }) });
const caller: Caller = { user_id: 'u1', org_id: 'o1', email_address: 'a@b.c', user_permissions: {}, is_admin: true };

describe('the input of the policy rules (services/api/lib/open-policy)', () => {
  it("describes the dashboard's endpoints as the reference's input.permissions, with RE2 patterns", () => {
    const permissions = routePermissions('/api', [
      route('get', '/users/:id', { name: 'users', level: 'read' }),
      route('post', '/login'),
      route('get', '/org/opa', { name: 'IsAdmin', level: 'admin' }),
    ]);
    assert.deepEqual(permissions, [
      { permission: 'users', level: 'read', method: 'GET', rx: '^/api/users/[^/]+/?$' },
      { permission: 'IsAdmin', level: 'admin', method: 'GET', rx: '^/api/org/opa/?$' },
    ]);
    const program = PolicyProgram.compile(
      'package p\nmatched contains p.permission if { some p in input.permissions; regex.match(p.rx, input.request.path) }',
    );
    assert.deepEqual(program.evaluate('matched', { permissions, request: { path: '/api/users/42' } }), ['users']);
  });

  it('gives rules the path as the router matched it: lower case, no repeated or trailing slash', () => {
    const input = policyInput(
      caller,
      {
        route: route('get', '/apis/oas/:id', { name: 'apis', level: 'read' }),
        method: 'GET',
        path: '/api/APIS//oas/X1/',
        query: {},
        body: () => null,
      },
      { id: 'o1' },
      [],
    );
    assert.equal((input.request as { path: string }).path, '/api/apis/oas/x1');
  });

  it('shows an administrator without permissions as IsAdmin, as rules written for the reference expect', () => {
    const input = policyInput(
      caller,
      {
        route: route('get', '/apis', { name: 'apis', level: 'read' }),
        method: 'GET',
        path: '/api/apis',
        query: {},
        body: () => null,
      },
      { id: 'o1' },
      [],
    );
    assert.deepEqual(input.user.user_permissions, { IsAdmin: 'admin' });
    assert.deepEqual(input.request.permission, { name: 'apis', level: 'read' });
    assert.equal(input.user.group_name, '');
  });

  it('logs the input without passwords, keys, secrets or PEM blocks', () => {
    const body = {
      email_address: 'x@y.z',
      password: 'p1',
      basic_auth_data: { password: 'p2' },
      access_key: 'k1',
      session: { key: 'k2', hmac_string: 'h1', secret: 's1' },
      certificate: '-----BEGIN PRIVATE KEY-----\nabc',
      list: [{ new_password: 'p3' }],
    };
    const input = policyInput(
      caller,
      { route: route('post', '/users'), method: 'POST', path: '/api/users', query: { token: 't1' }, body: () => body },
      { id: 'o1' },
      [],
    );
    const logged = JSON.stringify(inputForLog(input));
    for (const secret of ['p1', 'p2', 'p3', 'k1', 'k2', 'h1', 's1', 't1', 'BEGIN PRIVATE'])
      assert.ok(!logged.includes(`"${secret}`), `${secret} is not logged: ${logged}`);
    assert.match(logged, /"email_address":"x@y.z"/);
    const text = policyInput(
      caller,
      {
        route: route('post', '/certs'),
        method: 'POST',
        path: '/api/certs',
        query: {},
        body: () => '-----BEGIN CERTIFICATE-----',
      },
      { id: 'o1' },
      [],
    );
    assert.deepEqual((inputForLog(text) as { request: { body: unknown } }).request.body, '[27 characters]');
  });
});
