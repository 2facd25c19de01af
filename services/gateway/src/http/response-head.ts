import { ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';
import type { Express } from 'express';

/**
 * The header fields every answer of the gateway opens with (its request id, the security headers,
 * then a route's rate-limit state), held on the response as one flat `[name, value, ...]` list
 * until the answer is written instead of being set one by one with setHeader.
 *
 * An answer the gateway writes itself (`writeHeadWith`) sends them with its own fields in one
 * `writeHead(status, list)`: Node's fast path, which builds the head from the list instead of
 * storing each field in the response's header map first. Any other header operation on the
 * response (express's res.json, the CORS middleware, an error answer, a read like getHeader) first
 * sets the held fields in order with setHeader, so every answer carries the same fields in the
 * same order whichever way it is written.
 */

const HELD = Symbol('inquest.heldHeaders');

type HeldResponse = ServerResponse & { [HELD]?: string[] };

/** The response methods that read or change its header map (writeHead covers implicit heads). */
const HEADER_METHODS = [
  'setHeader',
  'setHeaders',
  'appendHeader',
  'getHeader',
  'getHeaders',
  'getHeaderNames',
  'getRawHeaderNames',
  'hasHeader',
  'removeHeader',
  'writeHead',
] as const;

/**
 * Makes the responses of `app` hold their opening fields (see `holdHeaders`): each header method
 * of its response prototype (express's `app.response`, this app's own) first sets the held fields.
 */
export function installHeldHeaders(app: Express): void {
  const proto = app.response as unknown as Record<string, unknown>;
  for (const name of HEADER_METHODS) {
    const base = proto[name] as ((this: HeldResponse, ...args: unknown[]) => unknown) | undefined;
    if (typeof base !== 'function') continue;
    proto[name] = function (this: HeldResponse, ...args: unknown[]) {
      if (this[HELD]) releaseHeld(this);
      return base.apply(this, args);
    };
  }
}

/**
 * Holds `fields` (a flat `[name, value, ...]` list of valid names and values, now owned by the
 * response) as the opening fields of the answer on `res`.
 */
export function holdHeaders(res: ServerResponse, fields: string[]): void {
  (res as HeldResponse)[HELD] = fields;
}

/**
 * Sets a field as setHeader does (a field of that name, in any case, keeps its place and takes
 * this name and value), among the held fields while they are held.
 */
export function setHeldHeader(res: ServerResponse, name: string, value: string): void {
  const held = (res as HeldResponse)[HELD];
  if (!held) {
    res.setHeader(name, value);
    return;
  }
  validateHeaderName(name);
  validateHeaderValue(name, value);
  put(held, name, value);
}

/**
 * Writes the head of the answer with `status`: the held fields, then `fields` (a flat list; a
 * name already held replaces the held value in place, as setHeader would), in one writeHead.
 * `fields` must hold valid names and values (a template's). Without held fields (another header
 * operation released them), the fields are set with setHeader and the head written after them.
 */
export function writeHeadWith(
  res: ServerResponse,
  status: number,
  fields: readonly string[] = [],
): void {
  const held = (res as HeldResponse)[HELD];
  if (!held) {
    for (let i = 0; i < fields.length; i += 2) res.setHeader(fields[i]!, fields[i + 1]!);
    res.writeHead(status);
    return;
  }
  (res as HeldResponse)[HELD] = undefined;
  for (let i = 0; i < fields.length; i += 2) put(held, fields[i]!, fields[i + 1]!);
  ServerResponse.prototype.writeHead.call(res, status, held);
}

/** Sets the held fields on the response's header map, in order, and stops holding them. */
function releaseHeld(res: HeldResponse): void {
  const held = res[HELD]!;
  res[HELD] = undefined;
  for (let i = 0; i < held.length; i += 2)
    ServerResponse.prototype.setHeader.call(res, held[i]!, held[i + 1]!);
}

function put(held: string[], name: string, value: string): void {
  for (let i = 0; i < held.length; i += 2) {
    const n = held[i]!;
    if (n.length === name.length && (n === name || n.toLowerCase() === name.toLowerCase())) {
      held[i] = name;
      held[i + 1] = value;
      return;
    }
  }
  held.push(name, value);
}
