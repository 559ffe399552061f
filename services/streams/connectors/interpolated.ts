import { interpolate, parseInterpolation, MappingSyntaxError, type Interpolation } from '../bloblang';
import type { StreamMessage } from './contract';

/** A connector field with Bloblang interpolations (`events-${! meta("kind") }`), parsed once. */
export class Interpolated {
  private readonly parsed: Interpolation;

  constructor(field: string, text: string) {
    const parsed = parseInterpolation(text);
    if (parsed instanceof MappingSyntaxError) throw new Error(`${field}: ${parsed.message}`);
    this.parsed = parsed;
  }

  /** the field's value for one message; throws when a query fails (the write then fails) */
  valueFor(message: StreamMessage): string {
    const value = interpolate(this.parsed, { content: message.content, metadata: message.metadata });
    if (typeof value !== 'string') throw new Error(value.message);
    return value;
  }
}

/** Bounds concurrent writes (`max_in_flight`). */
export class InFlightLimit {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}
