import { ApiError, type Envelope } from './api';

/**
 * The dashboard admin API (`/admin`), as the first-run setup calls it: the `admin-auth` secret
 * goes in a header of this one request and nowhere else. The caller keeps it in component
 * state only (never localStorage, sessionStorage or a cookie), and no cookie is sent along.
 */
export async function adminRequest<T = Envelope>(method: string, path: string, adminSecret: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'admin-auth': adminSecret };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/admin${path}`, { method, headers, credentials: 'omit', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'The dashboard server could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok) {
    const envelope = (json ?? {}) as Partial<Envelope>;
    throw new ApiError(res.status, envelope.Message ?? `The server answered ${res.status} ${res.statusText}`, envelope.Errors ?? []);
  }
  return json as T;
}
