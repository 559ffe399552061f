import { ApisErrors } from '../../errors';
import { pointer, type OasDocument } from './document';
import type { OperationSettings } from './gateway-extension';
import type { OasOperation } from './operations';
import { resolveLocalRefs, type RefBudget } from './refs';

type Entry = Record<string, unknown>;
type Media = { example?: unknown; examples?: Record<string, { value?: unknown }>; schema?: { example?: unknown } };

/**
 * `mockResponse.fromOASExamples`: the mock answers with an example the document gives for the
 * operation's response, as the reference gateway does: the response `code` (default: the first
 * 2xx listed), the `contentType` (default: application/json, else the first listed), and the
 * named example, else `example`, else the first of `examples`, else the schema's `example`.
 */
export function mockFromExamples(
  settings: OperationSettings,
  op: OasOperation,
  document: OasDocument,
  refs: RefBudget,
): Entry {
  const wanted = settings.mockResponse!.fromOASExamples!;
  const at = pointer('paths', op.path, op.method.toLowerCase(), 'responses');
  const responses = (resolveLocalRefs(op.operation.responses ?? {}, document, at, refs) ?? {}) as Record<
    string,
    { content?: Record<string, Media> }
  >;
  const code = wanted.code !== undefined ? String(wanted.code) : Object.keys(responses).find((c) => /^2\d\d$/.test(c));
  const response = code === undefined ? undefined : responses[code];
  const content = response?.content ?? {};
  const contentType =
    wanted.contentType ?? (content['application/json'] ? 'application/json' : Object.keys(content)[0]);
  const media = contentType === undefined ? undefined : content[contentType];
  const example = media ? exampleOf(media, wanted.exampleName) : undefined;
  if (example === undefined) {
    throw ApisErrors.invalidOas([
      `${at}${code ? `/${code}` : ''}: fromOASExamples is enabled but the operation documents no example${wanted.exampleName ? ` named "${wanted.exampleName}"` : ''} for ${contentType ?? 'any content type'}`,
    ]);
  }
  return {
    code: Number(code),
    body: typeof example === 'string' ? example : JSON.stringify(example),
    headers: {
      'Content-Type': contentType,
      ...Object.fromEntries((settings.mockResponse!.headers ?? []).map(({ name, value }) => [name, value])),
    },
  };
}

function exampleOf(media: Media, name: string | undefined): unknown {
  if (name !== undefined) return media.examples?.[name]?.value;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  if (first?.value !== undefined) return first.value;
  return media.schema?.example;
}
