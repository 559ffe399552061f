import express, { type Request, type Response, type Router } from 'express';
import type { ServiceBroker } from 'moleculer';
import { callerOf, type Call } from '../bus/call';
import { formFields } from './form-body';
import { jsonObjectBody } from './json-body';
import { HttpProblem, toProblem, type Problem } from './problem';
import { traceSurfaceRequests } from '../observability/tracing/surface-trace';
import type { Tracing } from '../observability/tracing/tracing';

/** What a route handler gets: the parsed request, the authenticated caller and the bus. */
export interface RouteContext<Caller> {
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers: Request['headers'];
  /**
   * The body as one JSON object; throws a 400 Problem otherwise. Handed to an action, it takes
   * the type of that action's params: the action's validator checks it before a handler sees it.
   */
  body<T extends object = Record<string, unknown>>(): T;
  /** The body's fields, form-encoded or a JSON object (lib/http/form-body.ts). */
  fields(): Record<string, string>;
  /** The body as sent, as text ('' when there is none): for uploads that are not JSON (PEM). */
  rawBody(): string;
  /** calls an action of contracts/actions.ts */
  call: Call;
}

export interface Reply {
  status?: number;
  /**
   * sent as JSON, unless `contentType` says the body is text of another kind (YAML); a Buffer
   * is sent as it is (a download), with `contentType` or application/octet-stream
   */
  body: unknown;
  contentType?: string;
  /** Set-Cookie values */
  cookies?: string[];
  /** further response headers (Content-Disposition of a download) */
  headers?: Record<string, string>;
}

export interface Route<Caller> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /** what the caller must hold, checked by the surface's `authorize` */
  permission?: { name: string; level: 'read' | 'write' | 'admin' };
  /** reachable without credentials (a login) */
  open?: boolean;
  /** any authenticated caller may use it, whatever their permissions (who am I) */
  anyCaller?: boolean;
  /**
   * the path parameter naming the user the route acts on: a caller acting on its own user needs
   * no `permission` (a user may always change its own password and renew its own access key)
   */
  ownUserParam?: string;
  /**
   * the body may be something other than JSON (YAML, PEM, a form); a surface that takes
   * browser cookies then takes such a body only from its own pages (lib/http/cross-site.ts)
   */
  anyBodyType?: boolean;
  handle(ctx: RouteContext<Caller>): Promise<Reply>;
}

/** The request as a surface's `admit` check sees it. */
export interface Admission<Caller> {
  route: Route<Caller>;
  method: string;
  /** the full path, mount included (`/api/users/1`), without the query */
  path: string;
  query: Record<string, unknown>;
  /** the body as JSON when it parses, else its text; null when there is none (parsed on first use) */
  body(): unknown;
}

/**
 * One HTTP surface (dashboard `/api`, admin `/admin`, gateway `/gw`): how callers prove who they
 * are, how errors look, and the route table. Everything else (body reading, error translation,
 * unknown routes) is written once, here.
 */
export interface Surface<Caller> {
  name: string;
  /**
   * Runs first, for every route (open ones included), for checks of the request itself that
   * come before who the caller is (requests a foreign page made a browser send); throws a
   * Problem to refuse.
   */
  screen?(req: Request, route: Pick<Route<Caller>, 'open' | 'anyBodyType'>): void;
  authenticate(req: Request, call: Call): Promise<Caller>;
  /** throws a 403 Problem when the caller may not use the route with these path parameters */
  authorize?(caller: Caller, route: Route<Caller>, params: Record<string, string>): void;
  /**
   * Runs after `authorize` and before the handler, for checks that need the request itself
   * (an organisation's policy rules); throws a Problem to refuse.
   */
  admit?(caller: Caller, request: Admission<Caller>): Promise<void>;
  renderError(problem: Problem): unknown;
  routes: Array<Route<Caller>>;
}

const BODY_LIMIT = '10mb';

function admission<Caller>(route: Route<Caller>, req: Request): Admission<Caller> {
  let parsed: { value: unknown } | undefined;
  const body = () => {
    parsed ??= { value: parseOrText(typeof req.body === 'string' ? req.body : '') };
    return parsed.value;
  };
  return { route, method: req.method, path: req.originalUrl.split('?')[0], query: req.query, body };
}

function parseOrText(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: the check sees the text
  }
}

export function buildRouter<Caller>(broker: ServiceBroker, surface: Surface<Caller>, tracing?: Tracing): Router {
  const router = express.Router();
  // first: the span covers reading the body too
  if (tracing) router.use(traceSurfaceRequests(tracing, surface.name));
  const logger = broker.getLogger(`http-${surface.name}`);
  const call = callerOf(broker);
  const fail = (res: Response, err: unknown) => {
    const problem = toProblem(err, (unexpected) =>
      logger.error(`unexpected error on ${surface.name} surface`, unexpected),
    );
    res.status(problem.status).json(surface.renderError(problem));
  };

  router.use(express.text({ type: () => true, limit: BODY_LIMIT }));
  for (const route of surface.routes) {
    router[route.method](route.path, async (req: Request, res: Response) => {
      try {
        surface.screen?.(req, route);
        const caller = route.open ? (undefined as Caller) : await surface.authenticate(req, call);
        if (!route.open) surface.authorize?.(caller, route, req.params as Record<string, string>);
        if (!route.open && surface.admit) await surface.admit(caller, admission(route, req));
        const reply = await route.handle({
          caller,
          params: req.params as Record<string, string>,
          query: req.query,
          headers: req.headers,
          body: <T extends object>() => jsonObjectBody(req.body) as T,
          fields: () => formFields(req.body, req.headers['content-type']),
          rawBody: () => (typeof req.body === 'string' ? req.body : ''),
          call,
        });
        if (reply.cookies) for (const cookie of reply.cookies) res.append('set-cookie', cookie);
        if (reply.headers) res.set(reply.headers);
        const status = reply.status ?? 200;
        // a Buffer goes out untouched: express would add a charset to the type of a string
        if (Buffer.isBuffer(reply.body)) {
          res
            .status(status)
            .type(reply.contentType ?? 'application/octet-stream')
            .send(reply.body);
        } else if (reply.contentType && typeof reply.body === 'string') {
          res.status(status).type(reply.contentType).send(reply.body);
        } else res.status(status).json(reply.body);
      } catch (err) {
        fail(res, err);
      }
    });
  }
  router.use((req: Request, res: Response) =>
    fail(res, new HttpProblem(404, `No such endpoint: ${req.method} ${req.originalUrl.split('?')[0]}`)),
  );
  router.use(
    (err: { status?: number; type?: string; message: string }, _req: Request, res: Response, _next: unknown) => {
      // Errors of the body reader itself (too large, bad encoding).
      const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 400;
      fail(
        res,
        new HttpProblem(
          status,
          err.type === 'entity.too.large'
            ? `Request body is larger than ${BODY_LIMIT}`
            : `Unreadable request body: ${err.message}`,
        ),
      );
    },
  );
  return router;
}
