import { randomUUID } from 'node:crypto';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a well-formed incoming request id, else make a new one. */
export function requestIdFrom(incoming: unknown): string {
  return typeof incoming === 'string' && VALID.test(incoming) ? incoming : newRequestId();
}

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}
