import type { IncomingMessage, ServerResponse } from 'node:http';
import { ToolError } from './tool-error';

/** Answers `body` as JSON with a content-length. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Reads a JSON body of at most `maxBytes` (413 past it, 400 when not JSON); empty is `{}`. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes)
      throw new ToolError(413, `body larger than ${maxBytes} bytes`, 'invalid_request');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ToolError(400, 'body is not valid JSON', 'invalid_request');
  }
}
