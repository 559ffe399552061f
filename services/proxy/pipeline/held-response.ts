import type { HeaderMap } from './forward-headers';
import type { HeldResponse, RequestContext } from './request-context';

/** Collects an upstream body whole, up to a limit (past it `onOverflow` is called once and the rest dropped). */
export class HeldBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private overflowed = false;

  constructor(
    private readonly status: number,
    private readonly headers: HeaderMap,
    private readonly maxBytes: number,
    private readonly onOverflow: () => void,
  ) {}

  add(chunk: Buffer): void {
    if (this.overflowed) return;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.overflowed = true;
      this.chunks.length = 0;
      this.onOverflow();
      return;
    }
    this.chunks.push(chunk);
  }

  response(): HeldResponse {
    return { status: this.status, headers: this.headers, body: Buffer.concat(this.chunks) };
  }
}

/** The request's response filters in order, each given what the previous one made. */
export async function runResponseFilters(ctx: RequestContext, response: HeldResponse): Promise<HeldResponse> {
  let current = response;
  for (const filter of ctx.responseFilters ?? []) current = await filter(current, ctx);
  return current;
}
