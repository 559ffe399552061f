import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { request } from 'undici';
import { BodyTooLarge, readBounded } from '../../../lib/net/read-bounded';
import { tenantAgent } from '../../../lib/net/tenant-agent';
import { ApisErrors } from '../errors';

/** The management node introspects a tenant's upstream: never a cloud-metadata address nor this node's own ports. */
const introspectionAgent = tenantAgent({ keepAliveTimeout: 10_000 });

/**
 * The largest introspection answer read, in bytes: the introspection JSON of the largest public
 * schemas is a few MiB; an upstream that sends more (or never stops) is refused, not buffered.
 */
export const INTROSPECTION_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Fetches a proxy-only API's schema from its upstream with an introspection query
 * (docs/graphql.md#schemas-on-the-dashboard), sending the introspection headers when the
 * upstream is protected. Returns the schema as SDL.
 */
export async function introspectUpstream(targetUrl: string, headers: Record<string, string>): Promise<string> {
  let response;
  try {
    response = await request(targetUrl, {
      dispatcher: introspectionAgent,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
  } catch (err) {
    throw ApisErrors.upstreamUnreachable(targetUrl, (err as Error).message);
  }
  let text: string;
  try {
    text = await readBounded(response.body, INTROSPECTION_MAX_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw ApisErrors.upstreamAnswerTooLarge(targetUrl, INTROSPECTION_MAX_BYTES);
    throw ApisErrors.upstreamUnreachable(targetUrl, (err as Error).message);
  }
  let result: { data?: IntrospectionQuery; errors?: Array<{ message: string }> };
  try {
    result = JSON.parse(text);
  } catch {
    throw ApisErrors.invalid(
      `The upstream answered ${response.statusCode} with a body that is not JSON; is ${targetUrl} a GraphQL endpoint?`,
    );
  }
  if (!result.data)
    throw ApisErrors.invalid(
      `The upstream refused the introspection query (${response.statusCode}): ${(result.errors ?? []).map((e) => e.message).join('; ') || 'no data'}`,
    );
  return printSchema(buildClientSchema(result.data));
}
