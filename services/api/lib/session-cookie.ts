import type { LoginResult } from '../../../contracts/users/actions';
import { cookieValue, sessionCookieName } from '../../../lib/http/session-cookie';

/** The dashboard's login cookie as this dashboard sets, reads and clears it. */
export interface SessionCookie {
  name: string;
  /** the session token in a `Cookie` header, or undefined */
  read(header: string | undefined): string | undefined;
  /** the Set-Cookie value that signs a browser in */
  set(login: LoginResult): string;
  /** the Set-Cookie value that signs a browser out */
  clear(): string;
}

/**
 * HTTP-only and SameSite=Strict always; over HTTPS (GW_DASHBOARD_URL https://…) also Secure
 * and named `__Host-gw-session`, and only that name is read: a cookie without the prefix may
 * have been planted by a neighbouring host or a plain-HTTP page.
 */
export function sessionCookie(dashboardUrl: string | undefined): SessionCookie {
  const secure = /^https:/i.test(dashboardUrl ?? '');
  const name = sessionCookieName(secure);
  const attributes = `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
  return {
    name,
    read(header) {
      const value = cookieValue(header, name);
      return value === '' ? undefined : value;
    },
    set(login) {
      const maxAge = Math.floor((Date.parse(login.expires_at) - Date.now()) / 1000);
      return `${name}=${login.session}; ${attributes}; Max-Age=${maxAge}`;
    },
    clear: () => `${name}=; ${attributes}; Max-Age=0`,
  };
}
