import { request as undiciRequest } from 'undici';
import { assertOutboundHost } from '../../../../lib/net/outbound-address';
import { tenantAgent as createTenantAgent } from '../../../../lib/net/tenant-agent';

/** Tenant code's calls never reach link-local or cloud-metadata addresses, nor this node's own ports (checked on the address connected to). */
const tenantAgent = createTenantAgent({ keepAliveTimeout: 10_000 });

export interface OutboundLimits {
  /** most HTTP calls one invocation may make */
  maxCalls: number;
  /** most response body bytes one invocation may receive, all calls together */
  maxBytes: number;
  timeoutMs: number;
}

/**
 * The HTTP helper of tenant code: a JSON request in the reference gateway's shape
 * (`{Method, Domain, Resource, Headers, Body}`), a JSON answer `{Code, Body, Headers}`; on a
 * failure or a spent budget, `{Code: 0, Body: "", Error}` rather than an exception.
 */
export async function outboundCall(
  json: string,
  limits: OutboundLimits,
  budget: { calls: number; bytes: number },
): Promise<string> {
  if (++budget.calls > limits.maxCalls) return failure(`more than ${limits.maxCalls} HTTP calls in one invocation`);
  try {
    const spec = JSON.parse(json) as {
      Method?: string;
      Domain?: string;
      Resource?: string;
      Headers?: Record<string, string>;
      Body?: string;
    };
    const url = new URL(spec.Resource ?? '/', spec.Domain);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return failure('only http and https URLs');
    assertOutboundHost(url);
    const response = await undiciRequest(url, {
      dispatcher: tenantAgent,
      method: (spec.Method ?? 'GET').toUpperCase() as 'GET',
      headers: spec.Headers ?? {},
      body: spec.Body,
      headersTimeout: limits.timeoutMs,
      bodyTimeout: limits.timeoutMs,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      budget.bytes += chunk.length;
      if (budget.bytes > limits.maxBytes) {
        response.body.destroy();
        return failure(`more than ${limits.maxBytes} response bytes in one invocation`);
      }
      chunks.push(chunk);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers))
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    return JSON.stringify({
      Code: response.statusCode,
      Body: Buffer.concat(chunks).toString('utf8'),
      Headers: headers,
    });
  } catch (err) {
    return failure((err as Error).message);
  }
}

function failure(message: string): string {
  return JSON.stringify({ Code: 0, Body: '', Headers: {}, Error: message });
}
