import type { UpstreamRequest, UpstreamResponseHandler } from '../../services/proxy/pipeline/upstream-client/exchange';
import type { OriginPool } from '../../services/proxy/pipeline/upstream-client/origin-pool';

export interface CollectedResponse {
  statusCode: number;
  /** [name, value, …] as the upstream wrote them */
  rawHeaders: string[];
  body: string;
  /** the 1xx statuses heard before the final one */
  informational: number[];
}

/** A request through a gateway upstream pool, its whole answer collected; rejects with the pool's error. `onAbort` gets the abort function. */
export function exchange(
  pool: OriginPool,
  request: Partial<UpstreamRequest> & { path: string },
  onAbort?: (abort: (err?: Error) => void) => void,
): Promise<CollectedResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const informational: number[] = [];
    let head: { statusCode: number; rawHeaders: string[] } | undefined;
    let endings = 0;
    const handler: UpstreamResponseHandler = {
      onConnect: (abort) => onAbort?.(abort),
      onHeaders(statusCode, rawHeaders) {
        if (statusCode < 200) informational.push(statusCode);
        else head = { statusCode, rawHeaders };
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        endings += 1;
        if (endings > 1) return reject(new Error('the exchange ended twice'));
        resolve({ ...head!, body: Buffer.concat(chunks).toString('utf8'), informational });
      },
      onError(err) {
        endings += 1;
        if (endings > 1) return reject(new Error('the exchange ended twice'));
        reject(err);
      },
    };
    pool.dispatch({ method: 'GET', headers: {}, body: null, timeoutMs: 10_000, ...request }, handler);
  });
}

/** A raw header's value by name, ignoring case. */
export function headerOf(response: CollectedResponse, name: string): string | undefined {
  for (let i = 0; i < response.rawHeaders.length; i += 2)
    if (response.rawHeaders[i].toLowerCase() === name) return response.rawHeaders[i + 1];
  return undefined;
}
