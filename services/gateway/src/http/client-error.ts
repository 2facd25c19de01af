import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { newRequestId, type Logger } from '@inquest/observability';

/** What Node could not parse answers: status line, machine code, message. */
function answerFor(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): {
  status: number;
  reason: string;
  code: string;
  message: string;
} {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 503,
      reason: 'Service Unavailable',
      code: 'unavailable',
      message: 'the request was not received in time',
    };
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // Node reports one overflow for the request line and the headers together: the URL is to
    // blame when the request line alone does not fit (no line end in what was read, or a long one).
    const packet = err.rawPacket;
    const lineEnd = packet ? packet.indexOf('\r\n') : -1;
    if (!packet || lineEnd < 0 || lineEnd > 8 * 1024)
      return {
        status: 414,
        reason: 'URI Too Long',
        code: 'uri_too_long',
        message: 'the request URL is too long',
      };
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'header_fields_too_large',
      message: 'the request headers are too large',
    };
  }
  return {
    status: 400,
    reason: 'Bad Request',
    code: 'invalid_request',
    message: 'malformed HTTP request',
  };
}

/**
 * Requests Node cannot even parse (an over-long URL or header block, a broken request line)
 * never reach express: answer them here with the usual error body, a generated request id and
 * `X-Request-Id`, then close the connection.
 */
export function installClientErrorHandler(server: Server, logger?: Logger): void {
  server.on(
    'clientError',
    (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
      if (!socket.writable || err.code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const a = answerFor(err);
      const requestId = newRequestId();
      logger?.debug(
        { request_id: requestId, code: err.code, status: a.status },
        'unparsable request',
      );
      const body = JSON.stringify({
        error: { code: a.code, message: a.message, request_id: requestId },
      });
      socket.end(
        `HTTP/1.1 ${a.status} ${a.reason}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    },
  );
}
