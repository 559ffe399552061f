import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Services import each other only through contracts/ (docs/architecture.md#calls-between-services); services/index.ts
 * and app/, the node's composition root, are what wire them all. lib/ holds what every service
 * shares at run time and depends on no service, nor on the composition root. contracts/ holds
 * types and validator data, importing nothing but itself.
 */
const root = resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file names: `import … from`, `export … from`, `import(…)`, `require(…)`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The files that reach into another service, as `file -> imported path`. */
export function crossServiceImports(files: Array<{ path: string; source: string }>): string[] {
  const problems: string[] = [];
  for (const { path, source } of files) {
    const [top, service] = relative(root, path).split(/[\\/]/);
    if (top !== 'services' || service === 'index.ts') continue;
    for (const specifier of specifiers(source)) {
      if (!specifier.startsWith('.')) continue;
      const [targetTop, targetService] = relative(root, resolve(dirname(path), specifier)).split(/[\\/]/);
      if (targetTop === 'services' && targetService !== service)
        problems.push(`${relative(root, path)} -> ${specifier}`);
    }
  }
  return problems;
}

/** The files of lib/ that import from services/ or app/, as `file -> imported path`. */
export function libImportsOfServices(files: Array<{ path: string; source: string }>): string[] {
  const problems: string[] = [];
  for (const { path, source } of files) {
    for (const specifier of specifiers(source)) {
      if (!specifier.startsWith('.')) continue;
      const imported = relative(root, resolve(dirname(path), specifier)).split(/[\\/]/)[0];
      if (imported === 'services' || imported === 'app') problems.push(`${relative(root, path)} -> ${specifier}`);
    }
  }
  return problems;
}

describe('service boundaries', () => {
  const read = (dir: string) =>
    sourceFiles(join(root, dir)).map((path) => ({ path, source: readFileSync(path, 'utf8') }));

  it("no service imports another service's files (only services/index.ts wires them)", () => {
    assert.deepEqual(crossServiceImports(read('services')), []);
  });

  it("the check sees an import of another service's internals", () => {
    const file = {
      path: join(root, 'services/proxy/pipeline/steps/graphql.ts'),
      source:
        "import { pickProtocol } from '../../../graphql-engine/lib/websocket-hand-off';\nimport type { Step } from '../compose';",
    };
    assert.deepEqual(crossServiceImports([file]), [
      'services/proxy/pipeline/steps/graphql.ts -> ../../../graphql-engine/lib/websocket-hand-off',
    ]);
  });

  it('lib/ imports nothing from services/ or app/ (it depends on no service)', () => {
    assert.deepEqual(libImportsOfServices(read('lib')), []);
  });

  it('the check sees lib/ importing the service list', () => {
    const source = "import { SERVICE_FACTORIES } from '../services';";
    const file = { path: join(root, 'lib/node.ts'), source };
    assert.deepEqual(libImportsOfServices([file]), ['lib/node.ts -> ../services']);
  });

  it('contracts import only contracts (and node: types)', () => {
    const contracts = join(root, 'contracts');
    const inContracts = (path: string, specifier: string) =>
      !relative(contracts, resolve(dirname(path), specifier)).startsWith('..');
    const outside = read('contracts').flatMap(({ path, source }) =>
      specifiers(source)
        .filter((specifier) =>
          specifier.startsWith('.') ? !inContracts(path, specifier) : !specifier.startsWith('node:'),
        )
        .map((specifier) => `${relative(root, path)} -> ${specifier}`),
    );
    assert.deepEqual(outside, []);
  });
});
