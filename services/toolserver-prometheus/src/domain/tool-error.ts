/**
 * A tool call that cannot be answered, with the HTTP status the tool-server contract answers:
 * 4xx for the caller's input (bad PromQL, bad times, too many points), 502/504 when Prometheus
 * or Alertmanager cannot be reached or fails. The message is meant for the engine and for people.
 */
export class ToolError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export const badInput = (message: string) => new ToolError(400, message);

/** Checked by name, not instanceof (a package loaded twice breaks instanceof). */
export function isToolError(err: unknown): err is ToolError {
  return (
    err instanceof Error &&
    err.name === 'ToolError' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}
