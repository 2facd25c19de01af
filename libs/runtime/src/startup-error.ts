/**
 * A start-up failure the user can fix (a port in use, a data dir held by another process):
 * `runMain` prints its message as one line, without a stack trace, and exits 1.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * Runs `listen` and turns "address in use" (or "permission denied") into a StartupError that names
 * the variable to set, e.g. `port 8080 is in use: set PORT to a free port`.
 */
export async function listenOrExplain<T>(
  variable: string,
  port: number,
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (err: unknown) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'EADDRINUSE')
      throw new StartupError(
        `port ${port} is in use (another Inquest or another program): set ${variable} to a free port`,
      );
    if (code === 'EACCES')
      throw new StartupError(
        `port ${port} needs privileges this process does not have: set ${variable} to a port above 1023`,
      );
    throw err;
  }
}
