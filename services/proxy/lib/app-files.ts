import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';

export interface AppFilesResult {
  definitions: ApiDefinition[];
  /** one line per file that was skipped, saying why */
  problems: string[];
}

/** Compiles an OAS document (JSON or YAML text) into its classic definition: the `apis` service's `apis.compileOas`. */
export type OasCompiler = (text: string) => Promise<Record<string, unknown>>;

const OAS_MARKER = /"x-gw-api-gateway"\s*:/;

/**
 * Reads the API definition files of GW_APPS_DIR, as the reference gateway reads its apps folder:
 * `*.json` holding one classic definition, or an OAS document carrying `x-gw-api-gateway`
 * (also as `*.yaml` / `*.yml`), compiled by `compileOas` into its classic form. A missing
 * folder is an empty one; a bad file is skipped and reported, never half-loaded.
 */
export async function readAppFiles(dir: string, compileOas?: OasCompiler): Promise<AppFilesResult> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => /\.(json|ya?ml)$/.test(name)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { definitions: [], problems: [] };
    throw err;
  }
  const definitions: ApiDefinition[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      const text = await readFile(file, 'utf8');
      const oas = !name.endsWith('.json') || OAS_MARKER.test(text);
      if (oas && !compileOas) throw new Error('OAS definition files need the apis service to compile them');
      const raw = oas ? await compileOas!(text) : JSON.parse(text);
      if (oas && !raw.api_id) throw new Error('x-gw-api-gateway.info.id is required in a definition file');
      definitions.push(definitionFromFile(raw));
    } catch (err) {
      problems.push(`${file}: ${(err as Error).message}`);
    }
  }
  return { definitions, problems };
}

function definitionFromFile(raw: unknown): ApiDefinition {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('must hold one JSON object');
  const definition = raw as Partial<ApiDefinition>;
  const proxy = definition.proxy;
  if (typeof definition.api_id !== 'string' || definition.api_id === '') throw new Error('api_id is required');
  if (typeof proxy?.listen_path !== 'string' || !proxy.listen_path.startsWith('/'))
    throw new Error("proxy.listen_path must start with '/'");
  if (typeof proxy.target_url !== 'string' || !/^(https?|h2c):\/\//i.test(proxy.target_url))
    throw new Error('proxy.target_url must be an http://, https:// or h2c:// URL');
  return {
    ...definition,
    id: typeof definition.id === 'string' && definition.id !== '' ? definition.id : `file:${definition.api_id}`,
    api_id: definition.api_id,
    name: definition.name ?? definition.api_id,
    org_id: definition.org_id ?? '',
    active: definition.active ?? true,
    proxy,
  };
}
