import { EnvError } from './env';

/** A started service or process part that can be stopped gracefully. */
export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Runs a process entry point: starts it, stops it gracefully on SIGTERM/SIGINT (a second signal
 * forces exit), exits 1 with one line on an EnvError or a StartupError, or with the error on any
 * other failure.
 */
export function runMain(name: string, start: () => Promise<Stoppable>): void {
  let running: Stoppable | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write(`${name}: ${signal} received, shutting down\n`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    (running ? running.stop() : Promise.resolve()).then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`${name}: error during shutdown: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  start().then(
    (r) => {
      running = r;
    },
    (err: unknown) => {
      process.stderr.write(`${startFailureText(name, err)}\n`);
      process.exit(1);
    },
  );
}

/**
 * What a failed start prints: one line for what the user can fix (a bad variable, a busy port, a
 * backend that cannot be reached at its configured address, naming the variable), the stack for
 * anything else.
 */
export function startFailureText(name: string, err: unknown): string {
  if (err instanceof Error && err.name === 'EnvError')
    return `${name}: invalid configuration: ${err.message}`;
  if (err instanceof Error && err.name === 'StartupError') return `${name}: ${err.message}`;
  if (err instanceof Error && /^Mongo(ServerSelection|Network|Parse)Error$/.test(err.name))
    return `${name}: cannot reach MongoDB (${err.message}): check INQUEST_MONGODB_URL and that MongoDB runs there`;
  if (err instanceof Error && err.name === 'NatsUnreachableError')
    return `${name}: ${err.message}: check INQUEST_NATS_URL and that nats-server runs there with JetStream (-js)`;
  return `${name}: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}

export { EnvError };
