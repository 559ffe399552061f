import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, startTestNode, type TestNode } from '../support/node';

const ROOT = join(__dirname, '..', '..');

/**
 * The shell examples a reader follows, run as written: the README's tour, then the blocks of the
 * docs pages marked `<!-- runnable -->`, in this order, in one shell state (variables and the
 * tour's `json` helper carry over). The node runs in this process and the example upstream in a
 * child, both on free ports; the blocks' fixed addresses are rewritten to those ports.
 * GW_TEST_DOCS_OUTPUT=1 prints what each block printed.
 */
const RUNNABLE_PAGES = ['apis', 'authentication', 'graphql', 'federation', 'streams', 'analytics-and-metrics'];

interface Example {
  where: string;
  script: string;
}

/** The ```sh and ```bash blocks of a markdown text, each with the line before its fence. */
function shellBlocks(markdown: string): Array<{ line: number; before: string; script: string }> {
  const lines = markdown.split('\n');
  const blocks: Array<{ line: number; before: string; script: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i])) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    blocks.push({ line: start + 1, before: lines[start - 1] ?? '', script: body.join('\n') });
  }
  return blocks;
}

function tourExamples(): Example[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const from = readme.indexOf('## A 5-minute tour');
  assert.ok(from >= 0, 'the README has a 5-minute tour');
  const to = readme.indexOf('\n## ', from + 1);
  const tour = readme.slice(from, to < 0 ? undefined : to);
  const offset = readme.slice(0, from).split('\n').length - 1;
  return (
    shellBlocks(tour)
      // the test starts the example upstream itself
      .filter((b) => b.script.trim() !== 'npm run example:upstream')
      .map((b) => ({ where: `README.md:${b.line + offset}`, script: b.script }))
  );
}

function pageExamples(page: string): Example[] {
  const file = `docs/${page}.md`;
  return shellBlocks(readFileSync(join(ROOT, file), 'utf8'))
    .filter((b) => b.before.trim() === '<!-- runnable -->')
    .map((b) => ({ where: `${file}:${b.line}`, script: b.script }));
}

async function startUpstream(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', join(ROOT, 'scripts', 'example-upstream.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the example upstream exited with ${code}`)));
  });
  return { child, port };
}

function bash(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * What a block prints when a call was refused (gw's three error shapes) or the `json` helper
 * read a field the answer did not have.
 */
const ERROR_ANSWER = /"Status":\s*"Error"|"status":\s*"error"|\{"error":|^undefined$/m;

/** Variables and functions a block leaves behind, for the next block (bash's own are left out). */
const SAVE_STATE = `
for name in $(compgen -v); do
  case "$name" in BASH*|EUID|PPID|UID|SHELLOPTS|GROUPS|FUNCNAME|PIPESTATUS|_|RANDOM|SRANDOM|SECONDS|LINENO|HISTCMD|EPOCH*|COMP*|DIRSTACK|OPT*|IFS|PS4|PWD|OLDPWD|SHLVL|HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE) continue;; esac
  declare -p "$name" 2>/dev/null | grep -v '^declare -[a-zA-Z]*r' || true
done > "$STATE_FILE"
declare -f >> "$STATE_FILE"
`;

describe('documentation examples', function () {
  this.timeout(60_000);
  let node: TestNode;
  let upstream: { child: ChildProcess; port: number };
  let stateDir: string;
  const examples = [...tourExamples(), ...RUNNABLE_PAGES.flatMap(pageExamples)];

  before(async () => {
    upstream = await startUpstream();
    node = await startTestNode();
    stateDir = mkdtempSync(join(tmpdir(), 'gw-docs-'));
  });
  after(async () => {
    upstream?.child.kill('SIGTERM');
    await node?.stop();
    if (node) removeDir(node.dataDir);
    if (stateDir) removeDir(stateDir);
  });

  it('finds the tour and the runnable blocks of the docs', () => {
    assert.ok(examples.length >= 12, `found only ${examples.length} blocks`);
  });

  for (const [index, example] of examples.entries()) {
    it(`runs ${example.where}`, async function () {
      const previous = index === 0 ? [] : examples.slice(0, index);
      // A block after a failed one would fail for the wrong reason.
      if (previous.some((p) => failed.has(p.where))) this.skip();
      const script = example.script
        .replaceAll('http://localhost:8080', node.gatewayUrl)
        .replaceAll('http://localhost:3000', node.dashboardUrl)
        .replaceAll('127.0.0.1:9000', `127.0.0.1:${upstream.port}`);
      const stateFile = join(stateDir, 'state.sh');
      // Asynchronously: the node answering the block's requests runs in this process.
      const run = await bash(`set -eo pipefail\n[ -f "$STATE_FILE" ] && . "$STATE_FILE"\n${script}\n${SAVE_STATE}`, {
        ...process.env,
        STATE_FILE: stateFile,
        GW_DATA_DIR: node.dataDir,
      });
      const output = `${run.stdout}\n${run.stderr}`;
      if (process.env.GW_TEST_DOCS_OUTPUT) console.log(`--- ${example.where}\n${output}`);
      const refused = ERROR_ANSWER.test(output);
      if (run.status !== 0 || refused) failed.add(example.where);
      assert.equal(run.status, 0, `${example.where} exited with ${run.status}:\n${output}`);
      assert.ok(!refused, `${example.where} printed an error answer or a missing JSON field:\n${output}`);
    });
  }
});

const failed = new Set<string>();
