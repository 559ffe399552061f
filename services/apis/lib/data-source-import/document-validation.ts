import SwaggerParser from '@apidevtools/swagger-parser';
import { Parser, DiagnosticSeverity } from '@asyncapi/parser';
import { ApisErrors } from '../../errors';

/** Checks an OpenAPI 3.0 document against its schema and rules (a copy: the parser dereferences in place). */
export async function validateOpenApi(document: Record<string, unknown>): Promise<void> {
  try {
    await SwaggerParser.validate(structuredClone(document) as never, { resolve: { external: false } });
  } catch (err) {
    throw ApisErrors.importInvalid(`Invalid OpenAPI document: ${(err as Error).message.split('\n')[0]}`);
  }
}

/**
 * Checks an AsyncAPI 2 document and returns it with its references resolved; component schemas
 * keep their name in `x-parser-schema-id`. Warnings and hints of the parser are not errors.
 */
export async function parseAsyncApi(document: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { document: parsed, diagnostics } = await new Parser().parse(structuredClone(document) as never);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error);
  if (!parsed || errors.length > 0) {
    const problems = errors.map((error) =>
      error.path.length > 0 ? `${error.path.join('.')}: ${error.message}` : error.message,
    );
    throw ApisErrors.importInvalid(`Invalid AsyncAPI document: ${problems[0] ?? 'it could not be parsed'}`, problems);
  }
  return parsed.json<Record<string, unknown>>();
}
