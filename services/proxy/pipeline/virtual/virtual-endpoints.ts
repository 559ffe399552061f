import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { realPathWithin, relativePathProblem } from '../../../../lib/safe-path';
import { compileEndpointEntries, type EndpointLookup } from '../endpoint-entries';
import type { IsolatePool, VirtualProgram } from './isolate-pool';

/** A `virtual` entry, compiled: the endpoint is answered by the tenant's function. */
export interface VirtualEndpoint {
  program: VirtualProgram;
  pool: IsolatePool;
  /** `use_session`: the function gets the key's session (else an empty object) */
  useSession: boolean;
  /** `proxy_on_error`: when the function fails, the request goes upstream instead of a 500 */
  proxyOnError: boolean;
}

/**
 * `extended_paths.virtual`: `{path, method, response_function_name, function_source_type:
 * "blob"|"file", function_source_uri, use_session, proxy_on_error}` as in the reference
 * gateway. A blob is the base64 of the script; a file is named relative to the plugins folder
 * (GW_PLUGINS_DIR) and read when the API is compiled.
 */
export function compileVirtualEndpoints(
  entries: unknown,
  ignoreCase: boolean,
  pool: () => IsolatePool,
  pluginsDir: string,
): EndpointLookup<VirtualEndpoint> | undefined {
  return compileEndpointEntries(entries, ignoreCase, (entry) => {
    if (typeof entry.response_function_name !== 'string' || typeof entry.function_source_uri !== 'string')
      return undefined;
    if (!/^[A-Za-z_$][\w$]*$/.test(entry.response_function_name))
      throw new Error(`response_function_name '${entry.response_function_name}' is not a JavaScript function name`);
    const source =
      entry.function_source_type === 'file'
        ? readScript(pluginsDir, entry.function_source_uri)
        : Buffer.from(entry.function_source_uri, 'base64').toString('utf8');
    return {
      program: { source, functionName: entry.response_function_name },
      pool: pool(),
      useSession: entry.use_session === true,
      proxyOnError: entry.proxy_on_error === true,
    };
  });
}

function readScript(folder: string, path: string): string {
  const problem = relativePathProblem(path);
  if (problem) throw new Error(`virtual endpoint file '${path}' ${problem}`);
  const real = realPathWithin(folder, resolve(folder, path));
  if (!real) throw new Error(`virtual endpoint file '${path}' is outside the plugins folder`);
  return readFileSync(real, 'utf8');
}
