// Replays deploy/Dockerfile without Docker, so CI catches a COPY that misses a file the build
// needs, or a runtime stage that cannot start: each stage is a folder; COPY takes the
// repository's tracked files (less .dockerignore) or another stage's files; RUN runs its
// command in the stage's folder, except apt-get (the toolchain is on the machine) and chown; ENV is kept
// for later RUNs and the start. Then scripts/smoke.sh starts the final stage's CMD, runs its
// HEALTHCHECK, proxies a request and stops it with SIGTERM; and again with `npm start`, sending
// SIGTERM to npm. Uses the `node` and `npm` on PATH.
//   node scripts/check-docker-steps.js [Dockerfile]
'use strict';
const { execFileSync, execSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { basename, dirname, join, relative, resolve } = require('node:path');

const root = join(__dirname, '..');
const dockerfile = process.argv[2] ?? join(root, 'deploy/Dockerfile');
const work = mkdtempSync(join(tmpdir(), 'gw-docker-steps-'));

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(text) {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, rest] = /^(\S+)\s+(.*)$/.exec(line);
      return { keyword: keyword.toUpperCase(), rest: rest.trim() };
    });
}

/** The build context: tracked files less what .dockerignore leaves out (its plain patterns). */
function contextFiles() {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  const ignore = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (ignore.some((pattern) => pattern.startsWith('!')))
    throw new Error('.dockerignore exceptions (!) are not replayed here');
  const patterns = ignore.map((pattern) => {
    const body = pattern
      .replace(/^\/+|\/+$/g, '')
      .split('**/')
      .map((part) =>
        part
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
      )
      .join('(?:.*/)?');
    return new RegExp(`^${body}(?:/.*)?$`);
  });
  return tracked.filter((file) => !patterns.some((re) => re.test(file)) && existsSync(join(root, file)));
}

/** COPY [--from=stage] <source>... <dest>: a folder's contents go into dest, as Docker does. */
function copy(stageDir, args, stages, context) {
  const from = /^--from=(\S+)$/.exec(args[0] ?? '');
  if (from) args = args.slice(1);
  if (args.some((arg) => arg.startsWith('--'))) throw new Error(`COPY option not replayed: ${args.join(' ')}`);
  const dest = args.pop();
  const intoDir = dest.endsWith('/') || args.length > 1;
  const target = join(stageDir, relative('/app', resolve('/app', dest)));
  for (const source of args) {
    const clean = relative('/app', resolve('/app', source));
    const name = basename(clean);
    if (from) {
      const other = stages.get(from[1]);
      if (!other) throw new Error(`COPY --from=${from[1]}: no such stage`);
      const path = join(other, clean);
      if (!existsSync(path)) throw new Error(`COPY --from=${from[1]} ${source}: not in that stage`);
      cpSync(path, statSync(path).isDirectory() || !intoDir ? target : join(target, name), { recursive: true });
      continue;
    }
    const files = context.filter((file) => file === clean || file.startsWith(`${clean}/`));
    if (files.length === 0)
      throw new Error(`COPY ${source}: nothing in the build context (tracked files less .dockerignore)`);
    for (const file of files) {
      const out = file === clean ? (intoDir ? join(target, name) : target) : join(target, relative(clean, file));
      mkdirSync(dirname(out), { recursive: true });
      cpSync(join(root, file), out);
    }
  }
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function main() {
  const context = contextFiles();
  const stages = new Map();
  const envs = new Map();
  let stageDir;
  let env = {};
  let cmd;
  let healthcheck;
  let index = 0;
  for (const { keyword, rest } of instructions(readFileSync(dockerfile, 'utf8'))) {
    if (keyword === 'FROM') {
      const [image, , name] = rest.split(/\s+/);
      stageDir = join(work, `${index++}-${name ?? 'final'}`);
      // FROM <earlier stage>: start from a copy of its files and environment.
      if (stages.has(image)) cpSync(stages.get(image), stageDir, { recursive: true });
      else mkdirSync(stageDir, { recursive: true });
      env = stages.has(image) ? { ...envs.get(image) } : {};
      if (name) stages.set(name, stageDir);
      if (name) envs.set(name, env);
      cmd = undefined;
      console.log(`docker steps: FROM ${rest}`);
    } else if (keyword === 'COPY') {
      copy(stageDir, rest.split(/\s+/), stages, context);
    } else if (keyword === 'RUN') {
      if (/^apt-get\b/.test(rest)) {
        console.log('docker steps: skipped (the machine has the toolchain):', rest.slice(0, 60));
        continue;
      }
      // The image's users do not exist here: ownership is not replayed.
      const command = rest
        .split(/\s*&&\s*/)
        .filter((part) => !/^chown\b/.test(part))
        .join(' && ');
      console.log(`docker steps: RUN ${command}`);
      execSync(command.replace(/\/app\b/g, stageDir), {
        cwd: stageDir,
        stdio: 'inherit',
        env: { ...process.env, ...env },
      });
    } else if (keyword === 'ENV') {
      for (const [, name, value] of rest.matchAll(/(\w+)=(\S+)/g)) env[name] = value.replace(/\/app\b/g, stageDir);
    } else if (keyword === 'CMD') {
      cmd = JSON.parse(rest);
    } else if (keyword === 'HEALTHCHECK') {
      healthcheck = JSON.parse(rest.slice(rest.indexOf('CMD') + 3));
    } else if (!['ARG', 'WORKDIR', 'USER', 'EXPOSE'].includes(keyword)) {
      throw new Error(`${keyword} is not replayed by this check`);
    }
  }
  if (!cmd) throw new Error('the final stage has no CMD');
  if (existsSync(join(stageDir, 'node_modules/typescript')))
    throw new Error('the final stage has development dependencies (typescript)');

  const ports = { GW_GATEWAY_PORT: String(await freePort()), GW_DASHBOARD_PORT: String(await freePort()) };
  const smoke = (command, extra = {}) =>
    execFileSync('bash', [join(root, 'scripts/smoke.sh'), ...command], {
      cwd: stageDir,
      stdio: 'inherit',
      env: { ...process.env, ...env, ...ports, ...extra },
    });
  smoke(cmd, healthcheck ? { SMOKE_HEALTHCHECK: healthcheck.join(' ') } : {});
  smoke(['npm', 'start']);
  console.log('docker steps: every stage built; the image starts, proxies and stops on SIGTERM (CMD and npm start)');
}

main()
  .then(() => rmSync(work, { recursive: true, force: true }))
  .catch((err) => {
    console.error(`docker steps: ${err.message} (stages kept in ${work})`);
    process.exit(1);
  });
