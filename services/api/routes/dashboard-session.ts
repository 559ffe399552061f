import type { Caller, LoginResult, SsoConsumeParams, UsersLoginParams } from '../../../contracts/users/actions';
import { ok } from '../../../lib/http/envelope';
import type { Reply, Route } from '../../../lib/http/surface';
import { gatewayUrlFor } from '../lib/gateway-url';
import type { SessionCookie } from '../lib/session-cookie';

/** Where this node's gateway listens, as far as the dashboard can tell. */
export interface GatewayLocation {
  port(): number;
  /** the bind address, shown when a request names no usable host */
  host: string;
}

/**
 * Signing in (password or single sign-on nonce), who is signed in, and signing out. The session
 * cookie is HTTP-only, so the page cannot read it and asks `/api/me` instead. `/api/me` also
 * names the gateway URL the pages show as "call it at" hints.
 */
export const dashboardSessionRoutes = (gateway: GatewayLocation, cookie: SessionCookie): Array<Route<Caller>> => [
  {
    method: 'post',
    path: '/login',
    open: true,
    handle: async ({ body, call }) => {
      const { email_address, password } = body<UsersLoginParams>();
      return loginReply(await call('users.login', { email_address, password }), cookie);
    },
  },
  {
    method: 'post',
    path: '/sso/login',
    open: true,
    handle: async ({ body, call }) =>
      loginReply(await call('users.sso.consume', { nonce: body<SsoConsumeParams>().nonce }), cookie),
  },
  {
    method: 'get',
    path: '/me',
    anyCaller: true,
    handle: async ({ caller, call, headers }) => {
      const [user, org] = await Promise.all([
        call('users.get', { id: caller.user_id, org_scope: caller.org_id }),
        call('orgs.get', { id: caller.org_id }),
      ]);
      return {
        body: {
          user: {
            id: user.id,
            first_name: user.first_name,
            last_name: user.last_name,
            email_address: user.email_address,
          },
          org: { id: org.id, name: org.owner_name },
          is_admin: caller.is_admin,
          user_permissions: caller.user_permissions,
          gateway_url: gatewayUrlFor(headers, gateway.port(), gateway.host),
        },
      };
    },
  },
  {
    method: 'post',
    path: '/logout',
    open: true,
    // Ends the login on the server (a copied cookie stops working too) and clears the browser's.
    handle: async ({ headers, call }) => {
      const session = cookie.read(headers.cookie);
      if (session) await call('users.logout', { session });
      return { body: ok('Logged out'), cookies: [cookie.clear()] };
    },
  },
];

/** A login answers with the session, and sets it as an HTTP-only cookie for the web UI. */
function loginReply(login: LoginResult, cookie: SessionCookie): Reply {
  return {
    body: ok('Login successful', { session: login.session, expires_at: login.expires_at, user: login.user }),
    cookies: [cookie.set(login)],
  };
}
