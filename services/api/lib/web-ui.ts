import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { projectFile } from '../../../lib/project-file';

/**
 * The web dashboard's Content-Security-Policy: everything from this origin, nothing inline,
 * no framing. The built UI has no inline script or style, so nothing needs an exception.
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The folder of the built UI: GW_DASHBOARD_UI_PATH, or the project's `dist/ui`. */
export function webUiFolder(configured: string): string {
  return configured ? resolve(configured) : join(dirname(projectFile('package.json')), 'dist', 'ui');
}

/**
 * Serves the web dashboard at `/` (for browsers; other clients keep the JSON index) and its
 * content-hashed files under `/assets/`. index.html is read on each request so a rebuild shows
 * at once; it is never cached, while the hashed assets are cached for good.
 */
export function webUiRouter(folder: string): Router {
  const router = express.Router();
  router.use('/assets', (_req, res, next) => {
    res.set('content-security-policy', UI_CONTENT_SECURITY_POLICY).set('x-content-type-options', 'nosniff');
    next();
  });
  router.use(
    '/assets',
    express.static(join(folder, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: true,
      etag: false,
    }),
  );
  router.get('/', (req, res, next) => {
    // curl and API clients (Accept: */* or JSON) keep the JSON index below.
    if (req.accepts(['json', 'html']) !== 'html') return next();
    serveIndex(folder, req, res);
  });
  return router;
}

function serveIndex(folder: string, _req: Request, res: Response): void {
  res.set('cache-control', 'no-cache').set('content-security-policy', UI_CONTENT_SECURITY_POLICY);
  res.set('x-content-type-options', 'nosniff').set('referrer-policy', 'same-origin').set('x-frame-options', 'DENY');
  const index = join(folder, 'index.html');
  if (!existsSync(index)) {
    res.status(503).type('html').send(notBuiltPage(folder));
    return;
  }
  res.type('html').send(readFileSync(index));
}

function notBuiltPage(folder: string): string {
  const escaped = folder.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gw dashboard: not built</title></head><body>
<h1>The web dashboard is not built</h1>
<p>No <code>index.html</code> in <code>${escaped}</code>. Run <code>npm run build</code> (or <code>npm start</code>, which builds first),
or point <code>GW_DASHBOARD_UI_PATH</code> at a built UI. The REST API is at <a href="/api">/api</a>.</p>
</body></html>`;
}
