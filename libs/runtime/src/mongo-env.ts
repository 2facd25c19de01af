import { z } from 'zod';
import { envMongoUrl } from './env-schemas';

/**
 * The MongoDB variables of every service that can use MongoDB; spread into its env schema:
 * `z.object({ ...envMongo, ... })`.
 */
export const envMongo = {
  /** MongoDB instead of the embedded SQLite store when set */
  INQUEST_MONGODB_URL: envMongoUrl.optional(),
  /** database name; default: the URL's path, else `inquest` */
  INQUEST_MONGODB_DB: z
    .string()
    .regex(/^[^/\\. "$]{1,63}$/, 'expected a MongoDB database name')
    .optional(),
};

/** What `mongoFromEnv` reads. */
export interface MongoEnv {
  INQUEST_MONGODB_URL?: string | undefined;
  INQUEST_MONGODB_DB?: string | undefined;
}

/** Where a service's MongoDB data lives. */
export interface MongoSettings {
  url: string;
  dbName: string;
}

/**
 * The one rule for the database name: `INQUEST_MONGODB_DB`, else the URL's path
 * (`mongodb://host/acme` → `acme`), else `inquest`; never the driver's default `test`.
 * Undefined when MongoDB is not configured.
 */
export function mongoFromEnv(env: MongoEnv): MongoSettings | undefined {
  const url = env.INQUEST_MONGODB_URL;
  if (!url) return undefined;
  return { url, dbName: env.INQUEST_MONGODB_DB ?? dbNameInUrl(url) ?? 'inquest' };
}

function dbNameInUrl(url: string): string | undefined {
  // mongodb+srv and multi-host URLs do not parse as WHATWG URLs: read the path by hand.
  const afterScheme = url.replace(/^mongodb(\+srv)?:\/\//, '');
  const slash = afterScheme.indexOf('/');
  if (slash < 0) return undefined;
  const path = afterScheme.slice(slash + 1).split('?')[0] ?? '';
  return path ? decodeURIComponent(path) : undefined;
}
