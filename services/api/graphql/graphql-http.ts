import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import {
  type GraphQLError,
  execute,
  getOperationAST,
  parse,
  validate,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
} from 'graphql';
import type { ServiceBroker } from 'moleculer';
import { callerOf } from '../../../lib/bus/call';
import { checkOperationLimits, type OperationLimits } from '../../../lib/graphql/operation-limits';
import { Playground } from '../../../lib/graphql/playground';
import { jsonObjectBody } from '../../../lib/http/json-body';
import { type HttpProblem, toProblem } from '../../../lib/http/problem';
import type { Caller } from '../../../contracts/users/actions';
import type { Surface } from '../../../lib/http/surface';
import { codeOf, type GraphqlContext } from './guard';
import { rootResolvers } from './resolvers';
import { dashboardSchema } from './schema';

/**
 * What one request may ask. The schema has no cycles, so only introspection can nest deeply:
 * depth, list nesting and field count allow GraphiQL's introspection query (depth 15, lists 3,
 * 229 fields) with little to spare; the field count also bounds fragments spread many times;
 * the root fields bound the bus calls of one request.
 */
export const DASHBOARD_GRAPHQL_LIMITS: OperationLimits = {
  maxDepth: 15,
  maxListNesting: 3,
  maxFields: 300,
  maxRootFields: 20,
};
/** characters of query text, and parser tokens */
const MAX_QUERY_LENGTH = 20_000;
const MAX_TOKENS = 5_000;
const BODY_LIMIT = '100kb';

type ErrorBody = { errors: Array<{ message: string; locations?: unknown; extensions: { code: string } }> };

/**
 * `POST /graphql` (the dashboard GraphQL API, authenticated as `/api`: `surface` is the dashboard
 * REST surface) and `GET /playground` (GraphiQL from the template path's local assets, pointed
 * at `/graphql`).
 */
export function dashboardGraphqlRouter(
  broker: ServiceBroker,
  playgroundFolder: string,
  surface: Pick<Surface<Caller>, 'screen' | 'authenticate'>,
  limits: OperationLimits = DASHBOARD_GRAPHQL_LIMITS,
): Router {
  const router = express.Router();
  const schema = dashboardSchema();
  const call = callerOf(broker);
  const logger = broker.getLogger('http-graphql');
  const onUnexpected = (err: unknown) => logger.error('unexpected error in the dashboard GraphQL API', err);
  let playground: Playground | undefined;

  router.get(/^\/playground(\/.*)?$/, (req: Request, res: Response) => {
    try {
      // Read on first use: a template path without a playground folder only loses the page.
      playground ??= new Playground(playgroundFolder, '/playground', '/graphql', 'gw dashboard');
    } catch (err) {
      logger.warn(`the GraphQL playground can not be served: ${(err as Error).message}`);
      return res
        .status(404)
        .json(
          errorBody('The GraphQL playground is not installed: the template path has no playground folder', 'NOT_FOUND'),
        );
    }
    const reply = playground.serve(req.path, '/playground');
    if (!reply) return res.status(404).json(errorBody('Not Found', 'NOT_FOUND'));
    res.status(reply.status).set(reply.headers).end(reply.body);
  });

  router.post(
    '/graphql',
    express.text({ type: () => true, limit: BODY_LIMIT }),
    async (req: Request, res: Response) => {
      let context: GraphqlContext;
      try {
        // A JSON body, like any change a browser's login cookie makes: a foreign page cannot send one.
        surface.screen?.(req, {});
        context = { caller: await surface.authenticate(req, call), call, onUnexpected };
      } catch (err) {
        const problem = toProblem(err, onUnexpected);
        return res.status(problem.status).json(errorBody(problem.message, codeOf(problem.status)));
      }
      const request = readRequest(req.body);
      if ('errors' in request) return res.status(400).json(request);
      const checked = checkDocument(schema, request, limits);
      if ('errors' in checked) return res.status(400).json(checked);
      const result = await execute({
        schema,
        document: checked.document,
        rootValue: rootResolvers,
        contextValue: context,
        variableValues: request.variables,
        operationName: request.operationName,
      });
      // Without data the request itself was refused (bad variables): GraphQL over HTTP answers 400.
      res.status(result.data === undefined ? 400 : 200).json(result);
    },
  );

  router.all('/graphql', (_req: Request, res: Response) => {
    res
      .status(405)
      .set('allow', 'POST')
      .json(
        errorBody(
          'The dashboard GraphQL API takes POST requests with a JSON body {query, variables, operationName}',
          'METHOD_NOT_ALLOWED',
        ),
      );
  });

  const bodyErrors: ErrorRequestHandler = (
    err: { status?: number; type?: string; message: string },
    _req,
    res,
    _next,
  ) => {
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 400;
    res
      .status(status)
      .json(
        errorBody(
          err.type === 'entity.too.large'
            ? `Request body is larger than ${BODY_LIMIT}`
            : `Unreadable request body: ${err.message}`,
          'BAD_REQUEST',
        ),
      );
  };
  router.use('/graphql', bodyErrors);
  return router;
}

interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

function readRequest(raw: unknown): GraphqlRequest | ErrorBody {
  let body: Record<string, unknown>;
  try {
    body = jsonObjectBody(raw);
  } catch (err) {
    return errorBody((err as HttpProblem).message, 'BAD_REQUEST');
  }
  const { query, variables, operationName } = body;
  if (typeof query !== 'string' || query.trim() === '')
    return errorBody('The body must hold the query as a non-empty string in "query"', 'BAD_REQUEST');
  if (query.length > MAX_QUERY_LENGTH)
    return errorBody(`The query is longer than ${MAX_QUERY_LENGTH} characters`, 'QUERY_TOO_LARGE');
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables)))
    return errorBody('"variables" must be a JSON object', 'BAD_REQUEST');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return errorBody('"operationName" must be a string', 'BAD_REQUEST');
  return {
    query,
    variables: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: operationName ?? undefined,
  };
}

/** Parses, validates and measures the query: the only errors a client can fix by changing it. */
function checkDocument(
  schema: ReturnType<typeof dashboardSchema>,
  request: GraphqlRequest,
  limits: OperationLimits,
): { document: DocumentNode } | ErrorBody {
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: MAX_TOKENS });
  } catch (err) {
    return { errors: [withCode(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')] };
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return { errors: invalid.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')) };
  const operation = getOperationAST(document, request.operationName);
  if (!operation) {
    return errorBody(
      request.operationName
        ? `Unknown operation named "${request.operationName}"`
        : 'The document holds several operations: name the one to run in "operationName"',
      'BAD_REQUEST',
    );
  }
  if (operation.operation !== 'query')
    return errorBody('The dashboard GraphQL API is read-only: only queries are supported', 'BAD_REQUEST');
  const fragments = document.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  const breach = checkOperationLimits(schema, operation, fragments, limits);
  if (breach)
    return errorBody(breach.message, breach.limit === 'maxDepth' ? 'DEPTH_LIMIT_EXCEEDED' : 'QUERY_TOO_COMPLEX');
  return { document };
}

function withCode(error: GraphQLError, code: string): ErrorBody['errors'][number] {
  return { message: error.message, locations: error.locations, extensions: { code } };
}

function errorBody(message: string, code: string): ErrorBody {
  return { errors: [{ message, extensions: { code } }] };
}
