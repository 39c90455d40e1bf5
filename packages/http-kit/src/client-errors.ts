import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { LecternError, type ErrorResponse } from '@lectern/errors';

/** An API's error body for an error and a request id (`toManagementError`, `toDeliveryError`, …). */
export type ToErrorResponse = (error: unknown, requestId: string) => ErrorResponse<unknown>;

/** What Node's HTTP parser hands to `clientError`: its error code, the bytes it was parsing and where it failed. */
type ParserError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

/** The parser's failure as a catalogue error: 431 for an oversized request line or headers, 408, else 400. */
function fromParser(error: ParserError): LecternError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new LecternError('HEADERS_TOO_LARGE');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new LecternError('REQUEST_TIMEOUT');
    case 'HPE_INVALID_URL':
      return new LecternError('MALFORMED_URL', {
        message: 'The URL contains a character a URL cannot hold (a space or a control character). Percent-encode it.',
      });
    default:
      // Open input: Node's parser has more codes than these (and may add some); the rest are 400.
      return new LecternError('MALFORMED_REQUEST');
  }
}

/**
 * Whether a body may follow the status line. The parser failed before it knew the method, so the
 * bytes it held up to the failure decide. No body after a HEAD request (anywhere in them), since
 * it would be read as the next response and break the connection's framing; none either when
 * the bytes do not begin with a request line (the request began in an earlier packet, its
 * method unknown). The bytes may start inside the previous request's body.
 */
function isBodyAllowed(error: ParserError): boolean {
  const raw = error.rawPacket;
  if (raw === undefined) return false;
  const end = Math.min(raw.length, (error.bytesParsed ?? raw.length) + 16, 65_536);
  const seen = raw.toString('latin1', 0, end);
  if (/(^|\n)HEAD /.test(seen)) return false;
  // Only a packet that begins with the request line (a method, however malformed, then a
  // target) shows the method: one that begins inside the URL or at a header (a long request
  // spans packets, and the parser may fail in any of them) may belong to a HEAD.
  return /^[^\s:]{1,32} (\/|\*|[A-Za-z][A-Za-z0-9+.-]*:)/.test(seen);
}

/**
 * A `clientError` listener that answers what Node's HTTP parser refused (URL and headers over
 * 16 KiB, malformed request lines, timeouts) in the API's own error body, then closes the
 * connection; the request never reaches the framework. A connection the client already reset
 * is closed silently.
 */
export function answerClientErrors(toErrorResponse: ToErrorResponse): (error: Error, socket: Duplex) => void {
  return (error: ParserError, socket: Duplex) => {
    // HPE_INVALID_EOF_STATE: the client closed its side before the body's last byte, so the
    // request being read can never complete; closing the connection aborts it (its handler
    // sees the body fail and removes what it stored) instead of leaving it stalled.
    if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    // Bytes after a request still being answered (more than its Content-Length said): that
    // request gets its answer, then the connection closes; the rest is not a request.
    const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (answering) {
      answering.once('close', () => socket.destroy());
      return;
    }
    const response = toErrorResponse(fromParser(error), randomUUID());
    // Without a body the length is 0 (not the body's): a GET whose request began in an earlier
    // packet then reads an empty answer instead of waiting for bytes that never come.
    const body = isBodyAllowed(error) ? Buffer.from(JSON.stringify(response.body)) : Buffer.alloc(0);
    const head = [
      `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${body.length}`,
      ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
      'connection: close',
      '',
      '',
    ].join('\r\n');
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]), () => socket.destroy());
  };
}

/** Answers a plain Node server's (Express's) parser errors in the API's error body. */
export function answerClientErrorsOf(server: Server, toErrorResponse: ToErrorResponse): Server {
  server.on('clientError', answerClientErrors(toErrorResponse));
  return server;
}
