import type { ServerResponse } from 'node:http';
import type { ApiDefinition } from '../../../../contracts/apis/api-definition';
import { DONE, type Step } from '../compose';

/** The reference gateway's defaults when a list is empty (those of the rs/cors library it uses). */
const DEFAULT_METHODS = ['GET', 'POST', 'HEAD'];
const DEFAULT_HEADERS = ['origin', 'accept', 'content-type', 'x-requested-with'];

interface CorsSettings {
  anyOrigin: boolean;
  exactOrigins: Set<string>;
  /** `https://*.example.com`: one wildcard, matched as prefix + suffix */
  wildcardOrigins: Array<{ prefix: string; suffix: string }>;
  methods: Set<string>;
  anyHeader: boolean;
  headers: Set<string>;
  exposedHeaders: string;
  credentials: boolean;
  maxAge: number;
  passthrough: boolean;
}

/**
 * The API's `CORS` block. A preflight (OPTIONS with Origin and Access-Control-Request-Method)
 * is answered here, before authentication, unless `options_passthrough` sends it on; other
 * requests from an allowed origin get the CORS headers on whatever answers them (the upstream
 * or a gateway error). An origin, method or header not allowed gets no CORS headers at all.
 */
export function corsStep(definition: ApiDefinition): Step | undefined {
  const settings = readCors(definition.CORS);
  if (!settings) return undefined;
  return (ctx) => {
    const { req, res } = ctx;
    const origin = req.headers.origin;
    const requestedMethod = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && requestedMethod !== undefined) {
      appendVary(res, 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      if (origin !== undefined)
        preflightHeaders(settings, res, origin, String(requestedMethod), req.headers['access-control-request-headers']);
      if (settings.passthrough) return;
      res.writeHead(204, { 'content-length': '0' });
      res.end();
      ctx.answered = true;
      return DONE;
    }
    appendVary(res, 'Origin');
    if (origin === undefined || !originAllowed(settings, origin) || !settings.methods.has(req.method ?? 'GET')) return;
    allowOrigin(settings, res, origin);
    if (settings.exposedHeaders) res.setHeader('access-control-expose-headers', settings.exposedHeaders);
  };
}

function preflightHeaders(
  settings: CorsSettings,
  res: ServerResponse,
  origin: string,
  method: string,
  requested: string | string[] | undefined,
): void {
  if (!originAllowed(settings, origin) || !settings.methods.has(method.toUpperCase())) return;
  const headers = String(requested ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!settings.anyHeader && !headers.every((name) => settings.headers.has(name.toLowerCase()))) return;
  allowOrigin(settings, res, origin);
  res.setHeader('access-control-allow-methods', method.toUpperCase());
  if (headers.length > 0) res.setHeader('access-control-allow-headers', headers.join(', '));
  if (settings.maxAge > 0) res.setHeader('access-control-max-age', String(settings.maxAge));
}

function allowOrigin(settings: CorsSettings, res: ServerResponse, origin: string): void {
  // A browser refuses `*` on a request with credentials: the origin itself is named then.
  res.setHeader('access-control-allow-origin', settings.anyOrigin && !settings.credentials ? '*' : origin);
  if (settings.credentials) res.setHeader('access-control-allow-credentials', 'true');
}

function originAllowed(settings: CorsSettings, origin: string): boolean {
  if (settings.anyOrigin) return true;
  const lower = origin.toLowerCase();
  if (settings.exactOrigins.has(lower)) return true;
  return settings.wildcardOrigins.some(
    (w) => lower.length >= w.prefix.length + w.suffix.length && lower.startsWith(w.prefix) && lower.endsWith(w.suffix),
  );
}

function appendVary(res: ServerResponse, value: string): void {
  const existing = res.getHeader('vary');
  res.setHeader('vary', existing ? `${String(existing)}, ${value}` : value);
}

function readCors(raw: unknown): CorsSettings | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const cors = raw as Record<string, unknown>;
  if (cors.enable !== true) return undefined;
  const origins = strings(cors.allowed_origins).map((origin) => origin.toLowerCase());
  const methods = strings(cors.allowed_methods).map((method) => method.toUpperCase());
  const headers = strings(cors.allowed_headers).map((header) => header.toLowerCase());
  const wildcardOrigins: CorsSettings['wildcardOrigins'] = [];
  const exactOrigins = new Set<string>();
  for (const origin of origins) {
    const star = origin.indexOf('*');
    if (star === -1) exactOrigins.add(origin);
    else if (origin !== '*') wildcardOrigins.push({ prefix: origin.slice(0, star), suffix: origin.slice(star + 1) });
  }
  return {
    anyOrigin: origins.length === 0 || origins.includes('*'),
    exactOrigins,
    wildcardOrigins,
    methods: new Set(methods.length > 0 ? methods : DEFAULT_METHODS),
    anyHeader: headers.includes('*'),
    headers: new Set(headers.length > 0 ? headers : DEFAULT_HEADERS),
    exposedHeaders: strings(cors.exposed_headers).join(', '),
    credentials: cors.allow_credentials === true,
    maxAge: Number(cors.max_age) > 0 ? Math.floor(Number(cors.max_age)) : 0,
    passthrough: cors.options_passthrough === true,
  };
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim())
    : [];
}
