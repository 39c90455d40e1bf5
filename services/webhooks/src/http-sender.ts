import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AddressRefusedError, guardRequest } from '@lectern/http-kit';

/** The outcome of one POST: the status when an answer came, and the start of its body or what went wrong. */
export interface SendOutcome {
  readonly status: number | null;
  readonly isAccepted: boolean;
  readonly response: string;
  readonly durationMs: number;
}

export interface SendRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export type Sender = (request: SendRequest) => Promise<SendOutcome>;

export interface HttpSenderOptions {
  /** No answer within this many ms is a failure (SPEC 6.4: 60 s). */
  readonly timeoutMs?: number;
  /** Loopback, private, link-local and metadata addresses allowed (tests, local development). */
  readonly isPrivateAllowed?: boolean;
  /** Response bytes read at most; the rest is not read (the connection is closed). */
  readonly maxResponseBytes?: number;
  /** Characters of the response kept for the debug list. */
  readonly excerptChars?: number;
}

/**
 * POSTs with Node's HTTP client: no redirect is followed (a 3xx is a failure like any non-2xx),
 * the answer is read up to a cap, and the SSRF guard checks every address connected to unless
 * private addresses are allowed.
 */
export function createHttpSender(options: HttpSenderOptions = {}): Sender {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const excerptChars = options.excerptChars ?? 1000;
  const isPrivateAllowed = options.isPrivateAllowed ?? false;

  return (req) =>
    new Promise<SendOutcome>((resolve) => {
      const started = performance.now();
      let isSettled = false;
      const done = (status: number | null, response: string) => {
        if (isSettled) return;
        isSettled = true;
        const isAccepted = status !== null && status >= 200 && status < 300;
        resolve({
          status,
          isAccepted,
          response: response.slice(0, excerptChars),
          durationMs: performance.now() - started,
        });
      };
      const url = new URL(req.url);
      const guard = guardRequest(url, isPrivateAllowed);
      if (guard.refusedAddress !== null) {
        done(null, new AddressRefusedError(guard.refusedAddress).message);
        return;
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(url, {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(req.body.length) },
        ...guard.options,
        agent: false,
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`No answer within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      request.on('error', (error) => {
        clearTimeout(timer);
        done(null, error.message);
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          clearTimeout(timer);
          done(response.statusCode ?? null, Buffer.concat(chunks).toString('utf8'));
        };
        response.on('data', (chunk: Buffer) => {
          if (size >= maxBytes) return;
          chunks.push(chunk.subarray(0, maxBytes - size));
          size += chunk.length;
          if (size >= maxBytes) {
            response.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
      });
      request.end(req.body);
    });
}
