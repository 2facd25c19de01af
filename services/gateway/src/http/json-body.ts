import { DomainError, invalidRequest } from '@inquest/errors';
import type { Request } from 'express';

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const isFormType = (ct: string) => /^application\/x-www-form-urlencoded\s*(;.*)?$/i.test(ct.trim());
const isJsonType = (ct: string) => /^application\/([a-z0-9.+-]*\+)?json\s*(;.*)?$/i.test(ct.trim());

/**
 * Reads and parses a JSON request body: 415 for a non-JSON content type, 413 past 1 MiB,
 * 400 for malformed JSON, prototype-pollution keys or nesting deeper than 32.
 * An empty body yields undefined.
 */
export async function readJsonBody(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  return parseJsonBody(await readRawBody(req, limit));
}

/**
 * The request body as received (signatures are computed over these bytes), with the checks of
 * readJsonBody that need no parsing: 415, 413. An empty body yields undefined.
 */
export async function readRawBody(
  req: Request,
  limit = MAX_BODY_BYTES,
  acceptForm = false,
): Promise<Buffer | undefined> {
  if (!hasBody(req)) return undefined;
  const declared = req.headers['content-length'];
  const ct = req.headers['content-type'];
  if (!ct || !(isJsonType(ct) || (acceptForm && isFormType(ct)))) {
    throw new DomainError(
      'invalid_input',
      'unsupported_media_type',
      'request bodies must be application/json',
    );
  }
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Whether the request announces a body (a length other than 0, or a transfer coding). */
export function hasBody(req: Request): boolean {
  const declared = req.headers['content-length'];
  return (
    (declared !== undefined && declared !== '0') || req.headers['transfer-encoding'] !== undefined
  );
}

/** Parses a raw body as readJsonBody does: 400 for malformed JSON, forbidden keys, deep nesting. */
export function parseJsonBody(raw: Buffer | undefined): unknown {
  if (raw === undefined) return undefined;
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalidRequest(`malformed JSON: ${(err as Error).message}`);
  }
  checkShape(value, 0);
  return value;
}

function tooLarge(limit: number) {
  return new DomainError(
    'invalid_input',
    'payload_too_large',
    `request body exceeds ${limit} bytes`,
  );
}

function checkShape(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_JSON_DEPTH)
    throw invalidRequest(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (const v of value) checkShape(v, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw invalidRequest(`forbidden key "${key}" in request body`);
    checkShape((value as Record<string, unknown>)[key], depth + 1);
  }
}
