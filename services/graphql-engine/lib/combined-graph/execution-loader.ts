import type { DataSourceFetcher, DataSourceRequest } from './fetcher';
import type { ForwardedField } from './forwarded-selection';
import type { OutboundTrace } from '../../../../contracts/graphql-engine/hand-off';
import { endWhenSettled } from '../../../../lib/observability/tracing/end-when-settled';

/** One upstream GraphQL endpoint as a batch addresses it (after templating). */
export interface GraphqlEndpoint {
  url: string;
  method: string;
  headers: Record<string, string>;
  operationType: 'query' | 'mutation';
}

interface Waiting {
  field: ForwardedField;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Batch {
  endpoint: GraphqlEndpoint;
  /** by field text: identical fields are asked once */
  fields: Map<string, Waiting[]>;
  variableDefinitions: string;
  variables: Record<string, unknown>;
}

/**
 * The data-source calls of one operation. Identical requests are sent once and shared (graphql-js
 * resolves the N children of a list in one pass, so N parents asking the same thing make one
 * call); the fields a GraphQL data source is asked for in the same pass go out as one query
 * with an alias per distinct field. Root mutation fields are never shared: each is one call.
 */
export class ExecutionLoader {
  private readonly shared = new Map<string, Promise<unknown>>();
  private readonly batches = new Map<string, Batch>();
  private scheduled = false;

  constructor(
    private readonly fetcher: DataSourceFetcher,
    /** the request's trace, when traced: each data-source call is a span of it */
    private readonly trace?: OutboundTrace,
  ) {}

  /** One data-source call, in the request's trace when there is one (its context sent along). */
  private call(request: DataSourceRequest): Promise<unknown> {
    if (!this.trace) return this.fetcher.json(request);
    const headers = { ...request.headers };
    const end = this.trace.start(`data source ${request.method}`, request.url, headers, request.method);
    return endWhenSettled(this.fetcher.json({ ...request, headers }), end);
  }

  /** Forgets what was shared: each event of a subscription is a new pass over fresh data. */
  forget(): void {
    this.shared.clear();
  }

  /** A REST call (or a fixed GraphQL operation); `share: false` for mutations. */
  fetch(request: DataSourceRequest, share: boolean): Promise<unknown> {
    if (!share) return this.call(request);
    const key = `${request.method} ${request.url}\u0000${headerKey(request.headers)}\u0000${request.body ?? ''}`;
    let pending = this.shared.get(key);
    if (!pending) this.shared.set(key, (pending = this.call(request)));
    return pending;
  }

  /** The value of one field from a GraphQL data source, asked with the other fields of this pass. */
  graphqlField(
    endpoint: GraphqlEndpoint,
    field: ForwardedField,
    variableDefinitions: string,
    variables: Record<string, unknown>,
  ): Promise<unknown> {
    const batchKey = `${endpoint.operationType} ${endpoint.method} ${endpoint.url}\u0000${headerKey(endpoint.headers)}\u0000${variableDefinitions}`;
    const shareKey = `${batchKey}\u0000${field.text}`;
    const existing = endpoint.operationType === 'query' ? this.shared.get(shareKey) : undefined;
    if (existing) return existing;
    let batch = this.batches.get(batchKey);
    if (!batch)
      this.batches.set(batchKey, (batch = { endpoint, fields: new Map(), variableDefinitions, variables: {} }));
    Object.assign(batch.variables, variables);
    const waiting = batch.fields.get(field.text) ?? [];
    batch.fields.set(field.text, waiting);
    const promise = new Promise<unknown>((resolve, reject) => waiting.push({ field, resolve, reject }));
    if (endpoint.operationType === 'query') this.shared.set(shareKey, promise);
    this.schedule();
    return promise;
  }

  /** After the current pass of resolvers (the same moment DataLoader picks). */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    void Promise.resolve().then(() =>
      process.nextTick(() => {
        this.scheduled = false;
        const batches = [...this.batches.values()];
        this.batches.clear();
        for (const batch of batches) void this.send(batch);
      }),
    );
  }

  private async send(batch: Batch): Promise<void> {
    const groups = [...batch.fields.values()];
    const selections = groups.map((group, index) => `_${index}: ${group[0].field.text}`).join(' ');
    const query = `${batch.endpoint.operationType}${batch.variableDefinitions} { ${selections} }`;
    const { url, method, headers } = batch.endpoint;
    try {
      const answer = (await this.call(
        graphqlRequest(url, method, headers, query, batch.variables),
      )) as UpstreamAnswer | null;
      groups.forEach((group, index) => settle(group, answer, `_${index}`));
    } catch (err) {
      for (const group of groups) for (const waiting of group) waiting.reject(err as Error);
    }
  }
}

/** The headers of a request as part of its identity (cheaper than JSON for the few a data source sends). */
function headerKey(headers: Record<string, string>): string {
  let key = '';
  for (const name in headers) key += `${name}:${headers[name]}\n`;
  return key;
}

/** A GraphQL request over HTTP: a JSON POST, or for GET the query and variables in the query string. */
function graphqlRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown>,
): DataSourceRequest {
  if (method === 'GET') {
    const params = new URLSearchParams({ query, variables: JSON.stringify(variables) });
    return {
      url: `${url}${url.includes('?') ? '&' : '?'}${params}`,
      method,
      headers: { ...headers, accept: 'application/json' },
    };
  }
  return {
    url,
    method,
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  };
}

interface UpstreamAnswer {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message?: string; path?: unknown[] }>;
}

/** An aliased field's value, or its upstream error when it came back without one. */
function settle(group: Waiting[], answer: UpstreamAnswer | null, alias: string): void {
  const value = answer?.data?.[alias];
  const errors = (answer?.errors ?? []).filter((error) => !Array.isArray(error.path) || error.path[0] === alias);
  if ((value === undefined || value === null) && errors.length > 0) {
    const error = new Error(errors.map((e) => e.message ?? 'upstream error').join('; '));
    for (const waiting of group) waiting.reject(error);
    return;
  }
  for (const waiting of group) waiting.resolve(value ?? null);
}
