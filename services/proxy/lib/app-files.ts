import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';

export interface AppFilesResult {
  definitions: ApiDefinition[];
  /** one line per file that was skipped, saying why */
  problems: string[];
}

/**
 * Reads the API definition files of GW_APPS_DIR (`*.json`, one classic definition each), as the
 * reference gateway reads its apps folder. A missing folder is an empty one; a bad file is
 * skipped and reported, never half-loaded.
 */
export async function readAppFiles(dir: string): Promise<AppFilesResult> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { definitions: [], problems: [] };
    throw err;
  }
  const definitions: ApiDefinition[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      definitions.push(definitionFromFile(JSON.parse(await readFile(file, 'utf8'))));
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
  if (typeof proxy?.listen_path !== 'string' || !proxy.listen_path.startsWith('/')) throw new Error("proxy.listen_path must start with '/'");
  if (typeof proxy.target_url !== 'string' || !/^https?:\/\//i.test(proxy.target_url)) throw new Error('proxy.target_url must be an http:// or https:// URL');
  return {
    ...definition,
    id: typeof definition.id === 'string' && definition.id !== '' ? definition.id : `file:${definition.api_id}`,
    api_id: definition.api_id,
    name: definition.name ?? definition.api_id,
    org_id: definition.org_id ?? '',
    active: definition.active ?? true,
    proxy,
  } as ApiDefinition;
}
