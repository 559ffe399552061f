import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

export interface StartedProgram {
  child: ChildProcess;
  banner: string;
  dashboardUrl?: string;
  gatewayUrl?: string;
  /** everything the program wrote so far, stdout and stderr */
  output(): string;
}

/**
 * Runs the program `npm start` runs (app/main.ts, through tsx) in `cwd` with exactly `env` (and
 * PATH), until its banner lists the URLs of the ports the node opens.
 */
export function startProgram(cwd: string, env: NodeJS.ProcessEnv): Promise<StartedProgram> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), join(ROOT, 'app/main.ts')], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const end = output.indexOf('\n\n', output.indexOf('gw is running'));
      if (!output.includes('gw is running') || end < 0) return;
      const banner = output.slice(0, end);
      resolvePromise({
        child,
        banner,
        dashboardUrl: /Dashboard:\s+(http:\/\/\S+)/.exec(banner)?.[1],
        gatewayUrl: /Gateway:\s+(http:\/\/\S+)/.exec(banner)?.[1],
        output: () => output,
      });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

/** Resolves with the exit code once the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise(code)));
}

/** Kills a child that is still running and waits for it to go (for `after` hooks). */
export async function killProgram(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners('exit');
  const gone = exited(child);
  child.kill('SIGKILL');
  await gone;
}

/**
 * Runs the program `npm start` runs in `cwd` with exactly `env` (and PATH) until it exits (for a
 * start that fails): its exit code and everything it wrote, stdout and stderr in order.
 */
export function runToExit(cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), join(ROOT, 'app/main.ts')], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolvePromise) => child.once('close', (code) => resolvePromise({ code, output })));
}
