import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Builds the web dashboard (ui/) with vite's JS API into a fresh temporary folder and answers
 * it, so browser tests run the UI of the sources under test, not a stale dist/ui.
 */
export async function buildUi(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'gw-ui-'));
  // vite is ESM-only: a real dynamic import, which tsc's CommonJS output would turn into require.
  const load = new Function('specifier', 'return import(specifier)') as (
    specifier: string,
  ) => Promise<{ build(config: Record<string, unknown>): Promise<unknown> }>;
  const vite = await load('vite');
  await vite.build({
    configFile: join(__dirname, '..', '..', 'ui', 'vite.config.mts'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}
