import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';

/** Which API a request goes to; it decides the error body a 4xx must have. */
/** `assets`: the assets origin (asset binaries and image transformations), apart from Management's. */
export type FuzzApi = 'management' | 'assets' | 'delivery' | 'preview' | 'graphql' | 'recommendations';

/**
 * One generated request. `path` is sent as it is (already encoded, malformed on purpose);
 * `raw` requests are written byte for byte on a fresh connection, for what an HTTP client
 * refuses to send (control characters, bad request lines) and for HEAD, whose answer must end
 * after its headers.
 */
export interface FuzzRequest {
  readonly api: FuzzApi;
  /** The route family it exercises, for the tally. */
  readonly family: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | string;
  /** Bytes to send instead of building a request from the fields above. */
  readonly raw?: string;
  /** True when the request may legitimately change stored data if it is accepted. */
  readonly isWrite: boolean;
  /**
   * A torn request: `raw` (a head claiming more body than follows) is written and the connection
   * dropped a moment later, as a client that goes away mid-upload. No answer is expected; the
   * judge checks that nothing of it was stored.
   */
  readonly isTorn?: boolean;
}

export interface FuzzResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
  /** Bytes that followed a HEAD answer's headers (must be none), raw requests only. */
  readonly bytesAfterHead?: number;
}

const timeoutMs = 15_000;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Closes the kept-alive connections, so the process can exit. */
export function closeClient(): void {
  agent.destroy();
}

/** Characters Node's client accepts in a request path: 0x21-0xff. */
export function isSendablePath(path: string): boolean {
  return /^[\u0021-\u00ff]*$/.test(path);
}

export function send(base: string, request: FuzzRequest): Promise<FuzzResponse> {
  if (request.isTorn === true) return sendTorn(base, request.raw ?? rawOf(request));
  if (request.raw !== undefined || request.method === 'HEAD' || !isSendablePath(request.path)) {
    return sendRaw(base, request.raw ?? rawOf(request));
  }
  const url = new URL(base);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  // Node frames a body of GET, DELETE, OPTIONS or TRACE with nothing: the server would read it as
  // the next request. A real client sends its length.
  const headers =
    body === undefined || request.headers['content-length'] !== undefined
      ? request.headers
      : { ...request.headers, 'content-length': String(body.length) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers,
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The request as bytes on the wire (latin1: one byte per character), on a connection closed after it. */
function rawOf(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? Buffer.from(request.body).toString('latin1')
        : Buffer.from(request.body).toString('latin1');
  const headers = { host: 'fuzz', ...request.headers, connection: 'close' } as Record<string, string>;
  if (body !== '' && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `${request.method} ${request.path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Writes raw bytes, waits a moment and drops the connection: answers status 0 (no answer). */
function sendTorn(base: string, bytes: string): Promise<FuzzResponse> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(Buffer.from(bytes, 'latin1'));
      setTimeout(() => {
        socket.destroy();
        resolve({ status: 0, headers: {}, body: Buffer.alloc(0) });
      }, 30);
    });
    socket.on('error', () => resolve({ status: 0, headers: {}, body: Buffer.alloc(0) }));
  });
}

/**
 * Writes raw bytes and reads one response (Content-Length or chunked), or what came before the
 * server closed. The client never half-closes: Node's server would close before answering.
 */
function sendRaw(base: string, bytes: string): Promise<FuzzResponse> {
  const url = new URL(base);
  const isHead = /^HEAD /.test(bytes);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(Buffer.from(bytes, 'latin1')));
    const chunks: Buffer[] = [];
    let isDone = false;
    const finish = (error?: Error) => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      socket.destroy();
      // The server may reset after answering (it stops reading a refused request): keep what came.
      if (chunks.length > 0) {
        try {
          resolve(parseRaw(Buffer.concat(chunks), isHead));
        } catch (parseError) {
          reject(parseError as Error);
        }
      } else reject(error ?? new Error('connection closed without an answer'));
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A HEAD answer is complete at its blank line; wait a moment for stray body bytes.
      if (isResponseComplete(Buffer.concat(chunks), isHead)) setTimeout(() => finish(), isHead ? 50 : 0);
    });
    socket.on('error', (error) => finish(error));
    socket.on('close', () => finish());
  });
}

function isResponseComplete(data: Buffer, isHead: boolean): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return false;
  if (isHead) return true;
  const head = data.subarray(0, end).toString('latin1');
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length !== undefined) return data.length - end - 4 >= Number(length);
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) return data.subarray(end).includes('\r\n0\r\n\r\n');
  return false;
}

function parseRaw(data: Buffer, isHead: boolean): FuzzResponse {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response head: ${JSON.stringify(data.subarray(0, 80).toString('latin1'))}`);
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const rest = data.subarray(end + 4);
  if (isHead) return { status, headers, body: Buffer.alloc(0), bytesAfterHead: rest.length };
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) return { status, headers, body: dechunk(rest) };
  const length = headers['content-length'] === undefined ? rest.length : Number(headers['content-length']);
  return { status, headers, body: rest.subarray(0, length) };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
