import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { readAppFiles } from '../../../services/proxy/lib/app-files';
import { DefinitionRegistry } from '../../../services/proxy/lib/definition-registry';

const def = (id: string, apiId: string): ApiDefinition => ({
  id,
  api_id: apiId,
  name: apiId,
  org_id: '',
  active: true,
  proxy: { listen_path: `/${apiId}`, target_url: 'http://up.test' },
});

describe('proxy: definitions', () => {
  describe('readAppFiles', () => {
    it('reads every *.json definition, fills defaults and reports bad files', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gw-apps-'));
      writeFileSync(
        join(dir, 'good.json'),
        JSON.stringify({ api_id: 'good', proxy: { listen_path: '/good', target_url: 'http://up.test' } }),
      );
      writeFileSync(join(dir, 'no-target.json'), JSON.stringify({ api_id: 'bad', proxy: { listen_path: '/bad' } }));
      writeFileSync(join(dir, 'not-json.json'), '{');
      writeFileSync(join(dir, 'readme.txt'), 'ignored');
      const { definitions, problems } = await readAppFiles(dir);
      assert.equal(definitions.length, 1);
      assert.deepEqual(
        { id: definitions[0].id, name: definitions[0].name, active: definitions[0].active },
        { id: 'file:good', name: 'good', active: true },
      );
      assert.equal(problems.length, 2);
      assert.match(problems.join('\n'), /no-target\.json: proxy\.target_url must be an http/);
      assert.match(problems.join('\n'), /not-json\.json:/);
    });

    it('treats a missing folder as empty', async () => {
      assert.deepEqual(await readAppFiles('/nonexistent/gw-apps'), { definitions: [], problems: [] });
    });
  });

  describe('DefinitionRegistry', () => {
    it('applies change events and prefers the store over a file with the same api_id', () => {
      const registry = new DefinitionRegistry();
      registry.replaceFiles([def('file:shared', 'shared'), def('file:only-file', 'only-file')]);
      registry.apply({ action: 'created', definition: def('1', 'shared') });
      assert.deepEqual(
        registry
          .all()
          .map((d) => d.id)
          .sort(),
        ['1', 'file:only-file'],
      );
      registry.apply({ action: 'deleted', id: '1', api_id: 'shared' });
      assert.deepEqual(
        registry
          .all()
          .map((d) => d.id)
          .sort(),
        ['file:only-file', 'file:shared'],
      );
    });
  });
});
