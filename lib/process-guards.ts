/**
 * Process-level safety nets for `npm start`. An error that escapes a listener or a promise
 * nobody awaited belongs to one request or connection (every input from outside is parsed
 * defensively, so this is a bug, not an attack): it is logged and the node keeps serving the
 * others, instead of dropping every connection it holds. Only the error's name, message and
 * stack are logged: properties such as a request's headers may carry credentials.
 */
export function installProcessGuards(
  logger: { error(message: string): void },
  proc: NodeJS.Process = process,
): () => void {
  const onException = (err: unknown) => logger.error(`uncaught exception, still serving: ${describe(err)}`);
  const onRejection = (reason: unknown) =>
    logger.error(`unhandled promise rejection, still serving: ${describe(reason)}`);
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  return () => {
    proc.off('uncaughtException', onException);
    proc.off('unhandledRejection', onRejection);
  };
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return `a thrown ${typeof err}`;
}

/**
 * SIGTERM (an orchestrator, `kill`) and SIGINT (Ctrl-C) both run `stop`, once. A signal that
 * comes while it runs is noted and ignored: left to its default action it would kill the node
 * in the middle of its drain, and Ctrl-C under `npm start` delivers SIGINT twice (the terminal
 * and npm both send it). GW_SHUTDOWN_TIMEOUT bounds the drain.
 */
export function onStopSignals(
  stop: (signal: NodeJS.Signals) => void,
  logger: { warn(message: string): void },
  proc: NodeJS.Process = process,
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return logger.warn(`${signal} received: already stopping`);
    stopping = true;
    stop(signal);
  };
  proc.on('SIGTERM', onSignal);
  proc.on('SIGINT', onSignal);
}
