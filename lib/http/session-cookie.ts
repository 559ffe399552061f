/**
 * The dashboard's login cookie, shared by the dashboard (which sets and reads it) and the
 * gateway (which never lets it reach an upstream). Over HTTPS it carries the `__Host-` prefix,
 * so browsers only accept it with `Secure`, `Path=/` and no `Domain`: a neighbouring host can
 * neither set nor replace it.
 */
export const SESSION_COOKIE = 'gw-session';
export const SECURE_SESSION_COOKIE = '__Host-gw-session';

/** The cookie's name on a dashboard served over HTTP or HTTPS. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * A `Cookie` header without the dashboard's login cookie (under either name), every other
 * cookie kept as sent; undefined when nothing is left.
 */
export function withoutSessionCookies(header: string): string | undefined {
  // Most requests carry no dashboard cookie: skip splitting them.
  if (!header.includes(SESSION_COOKIE)) return header;
  const kept = header.split(';').filter((part) => !isSessionCookie(part));
  const rest = kept.join(';').trimStart();
  return rest === '' ? undefined : rest;
}

function isSessionCookie(part: string): boolean {
  const separator = part.indexOf('=');
  const name = (separator === -1 ? part : part.slice(0, separator)).trim();
  return name === SESSION_COOKIE || name === SECURE_SESSION_COOKIE;
}
