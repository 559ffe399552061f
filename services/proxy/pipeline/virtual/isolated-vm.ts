/**
 * isolated-vm, which runs virtual endpoints, is an optional native dependency: one package for
 * Node 24 and later, an older major under an alias for Node 22 (each ships prebuilt binaries for
 * its lines). It is loaded on first use, so a gateway without it starts and serves everything
 * else; its virtual endpoints answer with `SandboxUnavailableError`.
 */

/** The packages tried in order: the first that loads on this Node line is used. */
export const ISOLATED_VM_PACKAGES = ['isolated-vm', 'isolated-vm-node22'] as const;

export const SANDBOX_UNAVAILABLE = 'GW_ERR_VIRTUAL_SANDBOX_UNAVAILABLE';

/** The parts of isolated-vm the pool uses, typed here so the code compiles with either package or none. */
export interface Ivm {
  Isolate: new (options: { memoryLimit: number }) => IvmIsolate;
  Reference: new (value: (...args: never[]) => unknown) => unknown;
  ExternalCopy: new (value: unknown) => { copyInto(): unknown };
}

export interface IvmIsolate {
  readonly isDisposed: boolean;
  dispose(): void;
  createContext(): Promise<IvmContext>;
}

export interface IvmContext {
  global: { set(name: string, value: unknown): Promise<unknown> };
  eval(code: string, options: { timeout: number }): Promise<unknown>;
  evalClosure(code: string, args: unknown[], options: { result: { copy: true }; timeout: number }): Promise<unknown>;
}

export class SandboxUnavailableError extends Error {
  readonly code = SANDBOX_UNAVAILABLE;
}

let loaded: Ivm | SandboxUnavailableError | undefined;

/** isolated-vm for this process, or throws `SandboxUnavailableError` saying why none loads. */
export function loadIsolatedVm(packages: readonly string[] = ISOLATED_VM_PACKAGES): Ivm {
  if (packages !== ISOLATED_VM_PACKAGES) return tryLoad(packages);
  loaded ??= attempt(() => tryLoad(packages));
  if (loaded instanceof SandboxUnavailableError) throw loaded;
  return loaded;
}

function attempt(load: () => Ivm): Ivm | SandboxUnavailableError {
  try {
    return load();
  } catch (err) {
    return err as SandboxUnavailableError;
  }
}

function tryLoad(packages: readonly string[]): Ivm {
  const reasons: string[] = [];
  for (const name of packages) {
    try {
      return require(name) as Ivm;
    } catch (err) {
      const { code, message } = err as { code?: string; message: string };
      reasons.push(`${name}: ${code === 'MODULE_NOT_FOUND' ? 'not installed' : message.split('\n')[0]}`);
    }
  }
  throw new SandboxUnavailableError(
    `virtual endpoints need isolated-vm, which does not load on Node ${process.versions.node} (${reasons.join('; ')})`,
  );
}
