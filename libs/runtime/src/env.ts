import type { z } from 'zod';

/** Thrown by parseEnv; its message is one line naming the variable. */
export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

/**
 * Validates environment variables with a zod object schema. A bad value throws EnvError with
 * one line naming the variable, e.g. `INQUEST_GRPC_PORT: expected a port number, got "abc"`.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  // `FOO=` (compose files, Helm values) means unset: without this an empty port coerces to 0.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const res = schema.safeParse(present);
  if (res.success) return res.data;
  const issue = res.error.issues[0]!;
  const name = String(issue.path[0] ?? 'environment');
  const got = env[name];
  throw new EnvError(
    `${name}: ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`,
  );
}
