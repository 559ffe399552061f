/**
 * A start-up failure an operator can act on: its message is one line that names the setting and
 * says what to do. Its stack is that line alone, so that Moleculer's "Unable to start all
 * services" log prints it without a trace; the error behind it is kept for GW_LOG_LEVEL=debug.
 */
export class StartupError extends Error {
  readonly #detail: string;

  constructor(message: string, behind?: unknown) {
    super(message);
    this.name = new.target.name;
    this.#detail = behind instanceof Error ? (behind.stack ?? String(behind)) : (this.stack ?? message);
    this.stack = `${this.name}: ${message}`;
  }

  /** the stack of the error this one explains (or its own): printed at debug level only */
  get detail(): string {
    return this.#detail;
  }
}

/** What a Node.js system error carries (listen, connect, getaddrinfo). */
export interface SystemError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

/**
 * Any error that stops a start as a StartupError: the ones already explained as they are, any
 * other with the first line of its message after `what` failed (the stack is kept for debug).
 */
export function asStartupError(err: unknown, what: string): StartupError {
  if (err instanceof StartupError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new StartupError(`${what}: ${message.split('\n')[0]}`, err);
}

/**
 * The lines to print when the start failed: at debug level the stack of what went wrong, then
 * always one line, last, that says what to do.
 */
export function startupFailureLines(err: unknown, logLevel: string | undefined): string[] {
  const failure = err instanceof StartupError ? err : undefined;
  const message = failure?.message ?? (err instanceof Error ? err.message : String(err)).split('\n')[0];
  const detail = failure?.detail ?? (err instanceof Error ? err.stack : undefined);
  const debug = logLevel === 'debug' || logLevel === 'trace';
  return [...(debug && detail ? [detail] : []), `gw failed to start: ${message}`];
}
