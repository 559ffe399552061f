/**
 * Process-level safety nets for `npm start`. An error that escapes a listener or a promise
 * nobody awaited belongs to one request or connection (every input from outside is parsed
 * defensively, so this is a bug, not an attack): it is logged and the node keeps serving the
 * others, instead of dropping every connection it holds. Only the error's name, message and
 * stack are logged: properties such as a request's headers may carry credentials.
 */
export function installProcessGuards(logger: { error(message: string): void }, proc: NodeJS.Process = process): () => void {
  const onException = (err: unknown) => logger.error(`uncaught exception, still serving: ${describe(err)}`);
  const onRejection = (reason: unknown) => logger.error(`unhandled promise rejection, still serving: ${describe(reason)}`);
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
