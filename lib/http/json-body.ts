import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth';
import { HttpProblem } from './problem';

/**
 * Reads a request body that must be one JSON object. Bodies arrive as raw text (whatever the
 * Content-Type: `curl -d` sends form encoding by default), so the error can say exactly what
 * is wrong with them.
 */
export function jsonObjectBody(raw: unknown): Record<string, unknown> {
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (text.trim() === '') throw new HttpProblem(400, 'Request body is empty: send a JSON object');
  if (jsonDepthExceeds(text))
    throw new HttpProblem(400, `Request body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new HttpProblem(400, `Malformed JSON in request body: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpProblem(
      400,
      `Request body must be a JSON object, not ${Array.isArray(parsed) ? 'an array' : typeof parsed === 'object' ? 'null' : `a ${typeof parsed}`}`,
    );
  }
  return parsed as Record<string, unknown>;
}
