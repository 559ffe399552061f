import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export interface ChildNode {
  process: ChildProcess;
  gatewayUrl: string;
  pause(): void;
  resume(): void;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s; resolves once it has exited */
  kill(): Promise<void>;
}

/**
 * Starts a gw node in a child process (test/support/child-node.ts) with these GW_* variables,
 * and resolves once it listens. Kill it in `after`.
 */
export async function startChildNode(env: Record<string, string>): Promise<ChildNode> {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', join(__dirname, 'child-node.ts')], {
    cwd: join(__dirname, '..', '..'),
    env: { PATH: process.env.PATH ?? '', GW_LOG_LEVEL: process.env.GW_TEST_LOG_LEVEL ?? 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const ports = await new Promise<{ gatewayPort: number | null }>((resolve, reject) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as { gatewayPort: number | null });
      });
      child.once('exit', (code) => reject(new Error(`child node exited with ${code}: ${stderr}`)));
    });
    return {
      process: child,
      gatewayUrl: ports.gatewayPort === null ? '' : `http://127.0.0.1:${ports.gatewayPort}`,
      pause: () => child.kill('SIGSTOP'),
      resume: () => child.kill('SIGCONT'),
      kill,
    };
  } catch (err) {
    await kill();
    throw err;
  }
}
