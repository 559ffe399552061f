import type { ValidateFunction } from 'ajv';
import { openApiAjv } from '../openapi/schema-compiler';
import type { RestTool } from './rest-tools';

const validators = new WeakMap<RestTool, ValidateFunction>();
const ajv = openApiAjv(false);

/** Why `args` do not match the tool's input schema, or undefined when they do. */
export function argumentsProblem(tool: RestTool, args: Record<string, unknown>): string | undefined {
  let validate = validators.get(tool);
  if (!validate) {
    validate = ajv.compile(tool.inputSchema);
    validators.set(tool, validate);
  }
  if (validate(args)) return undefined;
  const error = validate.errors?.[0];
  if (!error) return 'arguments do not match the input schema';
  const where = error.instancePath ? `argument "${error.instancePath.slice(1).replace(/\//g, '.')}"` : 'arguments';
  return `invalid ${where}: ${error.message ?? 'does not match the input schema'}`;
}
