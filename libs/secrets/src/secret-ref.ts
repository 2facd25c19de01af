import { invalidRequest } from '@inquest/errors';

const PREFIX = 'vault://';
const SEGMENT = /^[A-Za-z0-9_.@-]+$/;

export interface SecretRef {
  /** path inside the secret store, without the scheme, e.g. `teams/payments/grafana` */
  path: string;
  /** field of the secret object (`#key`), when given */
  key?: string;
}

/** True for strings of the form `vault://<path>[#key]` (syntax not checked further). */
export function isVaultRef(s: unknown): s is string {
  return typeof s === 'string' && s.startsWith(PREFIX) && s.length > PREFIX.length;
}

/** Parses a vault reference; throws invalid_request for anything malformed. Never echoes values. */
export function parseVaultRef(ref: string): SecretRef {
  if (!isVaultRef(ref))
    throw invalidRequest('secret reference must look like vault://<path>[#key]');
  const rest = ref.slice(PREFIX.length);
  const hash = rest.indexOf('#');
  const path = hash >= 0 ? rest.slice(0, hash) : rest;
  const key = hash >= 0 ? rest.slice(hash + 1) : undefined;
  const segments = path.split('/');
  if (!path || segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) {
    throw invalidRequest(`secret reference vault://${path} has an invalid path`);
  }
  if (key !== undefined && !SEGMENT.test(key)) {
    throw invalidRequest(`secret reference vault://${path} has an invalid #key`);
  }
  return key === undefined ? { path } : { path, key };
}
