import { interpolate, MappingSyntaxError, parseInterpolation } from '../bloblang';
import type { StreamMessage } from './message';

/** A field that may hold `${! … }` interpolations (Bento's interpolated strings), resolved per message. */
export type Interpolated = (message: StreamMessage | undefined) => string;

export function interpolated(text: string): Interpolated {
  if (!text.includes('${!')) return () => text;
  const parsed = parseInterpolation(text);
  if (parsed instanceof MappingSyntaxError)
    throw new Error(`the interpolation ${JSON.stringify(text)} does not parse: ${parsed.message}`);
  return (message) => {
    if (!message) return text;
    const out = interpolate(parsed, {
      content: message.content,
      metadata: message.metadata,
      error: message.error ?? null,
    });
    return typeof out === 'string' ? out : '';
  };
}
