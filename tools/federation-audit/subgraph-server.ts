import { createServer, type IncomingMessage, type Server } from 'node:http';
import { execute, parse, validate, type ExecutionResult } from 'graphql';
import type { AuditSubgraph } from './subgraph';

export interface SubgraphServer {
  /** The URL gw calls for `subgraph` of suite `suiteId`. */
  urlOf(suiteId: string, subgraph: string): string;
  /** Serves `subgraphs` of `suiteId` from now on. */
  add(suiteId: string, subgraphs: AuditSubgraph[]): void;
  stop(): Promise<void>;
}

/**
 * One HTTP server on 127.0.0.1 for every suite's subgraphs, at `/<suite>/<subgraph>`, as the audit
 * serves them: POST `{query, variables, operationName}`, errors unmasked, always a JSON answer.
 */
export async function startSubgraphServer(): Promise<SubgraphServer> {
  const routes = new Map<string, AuditSubgraph>();
  const server = createServer((req, res) => {
    void answer(routes.get(req.url ?? ''), req).then(
      (result) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(result));
      },
      (err: Error) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [{ message: err.message }] }));
      },
    );
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return {
    urlOf: (suiteId, subgraph) => `http://127.0.0.1:${port}/${suiteId}/${subgraph}`,
    add(suiteId, subgraphs) {
      for (const subgraph of subgraphs) routes.set(`/${suiteId}/${subgraph.name}`, subgraph);
    },
    stop: () => close(server),
  };
}

async function answer(subgraph: AuditSubgraph | undefined, req: IncomingMessage): Promise<ExecutionResult> {
  if (!subgraph) throw new Error(`no subgraph at ${req.url}`);
  const body = JSON.parse(await readBody(req)) as {
    query: string;
    variables?: Record<string, unknown>;
    operationName?: string;
  };
  const schema = subgraph.schema();
  const document = parse(body.query);
  const invalid = validate(schema, document);
  if (invalid.length > 0) return { errors: invalid };
  return execute({
    schema,
    document,
    variableValues: body.variables,
    operationName: body.operationName,
    contextValue: {},
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
