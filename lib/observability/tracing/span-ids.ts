import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const INVALID_SPAN_ID = '0000000000000000';
const INVALID_TRACE_ID = '00000000000000000000000000000000';

/**
 * Random trace and span ids in lower-case hex, as W3C trace context and OTLP want them, cut from
 * a pool of random bytes filled 4 KB at a time: one native call per id, where filling 8 or 16
 * bytes each time would cost a call to the system's random source per span.
 */
export class SpanIds {
  private readonly pool = Buffer.allocUnsafe(POOL_BYTES);
  private offset = POOL_BYTES;

  traceId(): string {
    const id = this.hex(16);
    return id === INVALID_TRACE_ID ? this.traceId() : id;
  }

  spanId(): string {
    const id = this.hex(8);
    return id === INVALID_SPAN_ID ? this.spanId() : id;
  }

  private hex(bytes: number): string {
    if (this.offset + bytes > POOL_BYTES) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    const id = this.pool.toString('hex', this.offset, this.offset + bytes);
    this.offset += bytes;
    return id;
  }
}
