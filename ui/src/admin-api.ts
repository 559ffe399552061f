import { send, type Envelope } from './api';

/**
 * The dashboard admin API (`/admin`), as the first-run setup calls it: the `admin-auth` secret
 * goes in a header of this one request and nowhere else. The caller keeps it in component
 * state only (never localStorage, sessionStorage or a cookie), and no cookie is sent along.
 */
export function adminRequest<T = Envelope>(
  method: string,
  path: string,
  adminSecret: string,
  body?: unknown,
): Promise<T> {
  return send<T>(`/admin${path}`, method, { credentials: 'omit', headers: { 'admin-auth': adminSecret } }, body);
}
