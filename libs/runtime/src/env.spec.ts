import { z } from 'zod';
import { EnvError, parseEnv } from './env';
import {
  envAddress,
  envBool,
  envLogLevel,
  envMongoUrl,
  envNatsUrl,
  envOptionalPort,
  envPort,
  envPositiveInt,
  envUrl,
} from './env-schemas';

const Schema = z.object({
  INQUEST_GRPC_PORT: envPort(50051),
  INQUEST_CONFIG_ADDR: envAddress('127.0.0.1:50051'),
  INQUEST_LOG_LEVEL: envLogLevel,
  INQUEST_DEV: envBool(false),
  INQUEST_WORKERS: envPositiveInt(4),
  INQUEST_NATS_URL: envUrl.optional(),
  INQUEST_MONGODB_URL: envMongoUrl.optional(),
  INQUEST_BUS_URL: envNatsUrl.optional(),
  INQUEST_METRICS_PORT: envOptionalPort,
});

/** parseEnv's failure message for env. */
function failure(env: Record<string, string | undefined>): string {
  try {
    parseEnv(Schema, env);
  } catch (err) {
    expect(err).toBeInstanceOf(EnvError);
    return (err as EnvError).message;
  }
  throw new Error('parseEnv accepted a bad environment');
}

describe('parseEnv', () => {
  it('applies defaults and coerces values', () => {
    expect(parseEnv(Schema, {})).toEqual({
      INQUEST_GRPC_PORT: 50051,
      INQUEST_CONFIG_ADDR: '127.0.0.1:50051',
      INQUEST_LOG_LEVEL: 'info',
      INQUEST_DEV: false,
      INQUEST_WORKERS: 4,
    });
    expect(
      parseEnv(Schema, {
        INQUEST_GRPC_PORT: '0',
        INQUEST_CONFIG_ADDR: '[::1]:6000',
        INQUEST_LOG_LEVEL: 'debug',
        INQUEST_DEV: 'yes',
        INQUEST_WORKERS: '12',
        INQUEST_NATS_URL: 'nats://nats:4222',
        UNRELATED: 'x',
      }),
    ).toEqual({
      INQUEST_GRPC_PORT: 0,
      INQUEST_CONFIG_ADDR: '[::1]:6000',
      INQUEST_LOG_LEVEL: 'debug',
      INQUEST_DEV: true,
      INQUEST_WORKERS: 12,
      INQUEST_NATS_URL: 'nats://nats:4222',
    });
  });

  it.each([
    [{ INQUEST_GRPC_PORT: 'abc' }, 'INQUEST_GRPC_PORT: expected a port number (got "abc")'],
    [{ INQUEST_GRPC_PORT: '70000' }, 'INQUEST_GRPC_PORT: expected a port number (got "70000")'],
    [{ INQUEST_GRPC_PORT: '1.5' }, 'INQUEST_GRPC_PORT: expected a port number (got "1.5")'],
    [
      { INQUEST_CONFIG_ADDR: 'localhost' },
      'INQUEST_CONFIG_ADDR: expected host:port (got "localhost")',
    ],
    [{ INQUEST_LOG_LEVEL: 'loud' }, 'INQUEST_LOG_LEVEL: expected a pino log level (got "loud")'],
    [{ INQUEST_DEV: 'maybe' }, 'INQUEST_DEV: expected 1/0 or true/false (got "maybe")'],
    [{ INQUEST_WORKERS: '0' }, 'INQUEST_WORKERS: expected a positive integer (got "0")'],
    [{ INQUEST_NATS_URL: 'not a url' }, 'INQUEST_NATS_URL: expected a URL (got "not a url")'],
    [
      { INQUEST_MONGODB_URL: 'postgres://db' },
      'INQUEST_MONGODB_URL: expected a mongodb:// URL (got "postgres://db")',
    ],
    [
      { INQUEST_BUS_URL: 'http://nats:4222' },
      'INQUEST_BUS_URL: expected a nats:// URL (got "http://nats:4222")',
    ],
    [
      { INQUEST_METRICS_PORT: '70000' },
      'INQUEST_METRICS_PORT: expected a port number (got "70000")',
    ],
  ])('rejects %j with one line naming the variable', (env, message) => {
    const msg = failure(env);
    expect(msg).toBe(message);
    expect(msg).not.toContain('\n');
  });

  it('accepts MongoDB and NATS URLs of every scheme, and an unset optional port', () => {
    for (const url of ['mongodb://a:27017/x', 'mongodb+srv://cluster.example.com/x'])
      expect(parseEnv(Schema, { INQUEST_MONGODB_URL: url }).INQUEST_MONGODB_URL).toBe(url);
    for (const url of ['nats://a:4222', 'tls://a:4222', 'ws://a', 'wss://a'])
      expect(parseEnv(Schema, { INQUEST_BUS_URL: url }).INQUEST_BUS_URL).toBe(url);
    expect(parseEnv(Schema, {}).INQUEST_METRICS_PORT).toBeUndefined();
    expect(parseEnv(Schema, { INQUEST_METRICS_PORT: '0' }).INQUEST_METRICS_PORT).toBe(0);
  });

  it('keeps the message on one line even when the bad value spans lines', () => {
    const msg = failure({ INQUEST_LOG_LEVEL: 'info\nINQUEST_ADMIN_TOKEN=x' });
    expect(msg.split('\n')).toHaveLength(1);
    expect(msg.startsWith('INQUEST_LOG_LEVEL: ')).toBe(true);
  });

  it('names a missing required variable without a value', () => {
    const Required = z.object({ INQUEST_ADMIN_TOKEN: z.string({ message: 'required' }) });
    expect(() => parseEnv(Required, {})).toThrow(new EnvError('INQUEST_ADMIN_TOKEN: required'));
  });

  it('treats an empty variable as unset (FOO= in compose files), not as 0', () => {
    expect(parseEnv(Schema, { INQUEST_GRPC_PORT: '', INQUEST_NATS_URL: '' })).toMatchObject({
      INQUEST_GRPC_PORT: 50051,
    });
    expect(parseEnv(Schema, { INQUEST_NATS_URL: '' }).INQUEST_NATS_URL).toBeUndefined();
  });

  it('reports the first bad variable when several are bad', () => {
    expect(failure({ INQUEST_GRPC_PORT: 'x', INQUEST_LOG_LEVEL: 'y' })).toMatch(
      /^INQUEST_GRPC_PORT: /,
    );
  });
});
