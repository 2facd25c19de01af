import pino from 'pino';
import type { Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export interface LoggerOptions {
  /** service name, logged as `service` */
  name: string;
  level?: string;
  /** where to write; defaults to stdout */
  destination?: NodeJS.WritableStream;
}

/** Paths that may carry secrets; pino replaces their values with "[redacted]". */
export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'token',
  'secret',
  'password',
  'api_key',
  '*.token',
  '*.secret',
  '*.password',
  '*.api_key',
  '*.authorization',
  '*.signing_secret',
];

/** JSON logs (pino) with the service name and secret redaction. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      base: { service: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    (options.destination as pino.DestinationStream | undefined) ?? pino.destination(1),
  );
}

/** A logger that writes nothing (tests). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
