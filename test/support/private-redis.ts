import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './private-brokers';

export interface PrivateRedis {
  url: string;
  /** stops this instance only (never the shared one); resolves once the process has exited */
  stop(): Promise<void>;
  /** freezes the process (SIGSTOP): connections stay open, nothing is answered */
  pause(): void;
  /** lets a paused process run again (SIGCONT) */
  resume(): void;
}

/** A redis-server of the test's own, on a free port, with nothing saved to disk. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  let exited: Promise<unknown> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      exited ??= once(child, 'exit');
      child.kill('SIGTERM');
      // A paused process only acts on the SIGTERM once it runs again.
      child.kill('SIGCONT');
      return exited.then(() => undefined);
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
  };
}
