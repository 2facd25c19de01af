import { z } from 'zod';

/** Reusable zod pieces for env schemas. */
export const envPort = (def: number) =>
  z.coerce
    .number({ message: 'expected a port number' })
    .int('expected a port number')
    .min(0, 'expected a port number')
    .max(65535, 'expected a port number')
    .default(def);

/** A port that may be left unset (the feature it serves is then off). */
export const envOptionalPort = z.coerce
  .number({ message: 'expected a port number' })
  .int('expected a port number')
  .min(0, 'expected a port number')
  .max(65535, 'expected a port number')
  .optional();

/** A MongoDB connection string (mongodb:// or mongodb+srv://). */
export const envMongoUrl = z.string().regex(/^mongodb(\+srv)?:\/\//, 'expected a mongodb:// URL');

/** A NATS server URL (nats://, tls://, ws:// or wss://). */
export const envNatsUrl = z.string().regex(/^(nats|tls|wss?):\/\//, 'expected a nats:// URL');

export const envAddress = (def: string) =>
  z
    .string()
    .regex(/^[^\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/, 'expected host:port')
    .default(def);

export const envUrl = z.string().url('expected a URL');

/** An absolute http(s) URL (an API base URL: Vault, an LLM, embeddings). */
export const envHttpUrl = z
  .string()
  .refine((v) => /^https?:\/\/[^\s/]/.test(v) && URL.canParse(v), 'expected an http(s) URL');

export const envBool = (def: boolean) =>
  z
    .enum(['0', '1', 'true', 'false', 'yes', 'no'], { message: 'expected 1/0 or true/false' })
    .transform((v) => v === '1' || v === 'true' || v === 'yes')
    .default(def);

export const envLogLevel = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'expected a pino log level',
  })
  .default('info');

export const envPositiveInt = (def: number) =>
  z.coerce
    .number({ message: 'expected a positive integer' })
    .int('expected a positive integer')
    .positive('expected a positive integer')
    .default(def);

/** Default loopback gRPC addresses of the services (all-in-one and local distributed runs). */
export const DEFAULT_ADDRESSES = {
  config: '127.0.0.1:50051',
  investigation: '127.0.0.1:50052',
  knowledge: '127.0.0.1:50053',
  tools: '127.0.0.1:50054',
  notifier: '127.0.0.1:50055',
} as const;
