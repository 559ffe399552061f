import type { IncomingMessage } from 'node:http';
import { headerValue } from './credentials';
import { HttpProblem } from './problem';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where the page that sent a request came from, as the browser tells it. */
export type RequestSite = 'same-origin' | 'cross-site' | 'unknown';

/** Methods that change something: the ones a foreign page must not send with the user's cookie. */
export function changesState(method: string | undefined): boolean {
  return !SAFE_METHODS.has((method ?? 'GET').toUpperCase());
}

/**
 * `Sec-Fetch-Site` and `Origin`, which a page cannot forge. `same-site` counts as cross-site:
 * a page on another port of the same host (the gateway's) is same-site. A request with
 * neither header did not come from a current browser (or came from typing the address).
 * The expected origin is `trustedOrigin` when configured, else the request's own `Host` with
 * its scheme (`X-Forwarded-Proto` from a TLS proxy; a page cannot set that header either).
 */
export function requestSite(req: IncomingMessage, trustedOrigin: string | undefined): RequestSite {
  const fetchSite = headerValue(req.headers['sec-fetch-site'])?.toLowerCase();
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return 'cross-site';
  const origin = headerValue(req.headers.origin);
  if (origin !== undefined) {
    const expected = trustedOrigin === undefined ? ownOrigin(req) : originOf(trustedOrigin);
    return expected !== undefined && originOf(origin) === expected ? 'same-origin' : 'cross-site';
  }
  return fetchSite === 'same-origin' || fetchSite === 'none' ? 'same-origin' : 'unknown';
}

/** `application/json` or `application/<something>+json`, parameters aside. */
export function isJsonContentType(value: string | undefined): boolean {
  const type = (value ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

export interface CookieWriteRules {
  /** the dashboard's configured origin (GW_DASHBOARD_URL), if any */
  trustedOrigin: string | undefined;
  /** the route also takes bodies that are not JSON (YAML, PEM, forms) */
  anyBodyType?: boolean;
}

/**
 * Refuses (403) a change authenticated by a browser cookie that a foreign page may have sent:
 * one from another site, or whose body is not JSON. A page can only send a cross-origin JSON
 * body after a CORS preflight, which the dashboard never grants; so a JSON body is enough when
 * the browser names no origin. Other body types are taken only from the dashboard's own pages.
 */
export function refuseCrossSiteWrite(req: IncomingMessage, rules: CookieWriteRules): void {
  if (!changesState(req.method)) return;
  const site = requestSite(req, rules.trustedOrigin);
  if (site === 'cross-site') throw crossSiteRefused("the request came from another site's page");
  const contentType = headerValue(req.headers['content-type']);
  if (contentType === undefined && !carriesBody(req)) return;
  if (isJsonContentType(contentType)) return;
  if (rules.anyBodyType && site === 'same-origin') return;
  throw crossSiteRefused(
    'a change made with the dashboard login cookie must be sent as JSON (Content-Type: application/json)',
  );
}

/** Refuses (403) a login or logout sent by another site's page (login cross-site request forgery). */
export function refuseCrossSiteSession(req: IncomingMessage, trustedOrigin: string | undefined): void {
  if (changesState(req.method) && requestSite(req, trustedOrigin) === 'cross-site')
    throw crossSiteRefused("the request came from another site's page");
}

function crossSiteRefused(why: string): HttpProblem {
  return new HttpProblem(403, `Cross-site request refused: ${why}`);
}

function carriesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function ownOrigin(req: IncomingMessage): string | undefined {
  const host = headerValue(req.headers.host);
  if (host === undefined) return undefined;
  const forwarded = headerValue(req.headers['x-forwarded-proto'])?.split(',')[0].trim().toLowerCase();
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  const scheme = tls ? 'https' : forwarded === 'https' || forwarded === 'http' ? forwarded : 'http';
  return originOf(`${scheme}://${host}`);
}

/** The serialised origin of a URL (lower case, default port left out); undefined for `null` or garbage. */
function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
