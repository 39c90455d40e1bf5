import * as http from 'node:http';
import * as https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { BlobStoreFullError } from '@lectern/core';
import { isConnectionLost, LecternError } from '@lectern/errors';

/**
 * An error answer of the S3 server that the `minio` client would not have parsed: the server's
 * own `code` (`InternalError`, `SlowDown`, …), its message, the HTTP status and its request id.
 */
export class S3ServerError extends Error {
  readonly code: string;
  readonly status: number;
  readonly requestId: string | undefined;

  constructor(options: { code: string; message: string; status: number; requestId?: string }) {
    super(`${options.code} (HTTP ${options.status}): ${options.message}`);
    this.name = 'S3ServerError';
    this.code = options.code;
    this.status = options.status;
    this.requestId = options.requestId;
  }
}

/**
 * The statuses `minio` 8.0.7 treats as "retryable" (internal/request.ts): for these it throws a
 * bare `Retryable HTTP status: N` without reading the body, even with its retry turned off, so
 * the server's error code is lost (and the unread body keeps its socket). The transport below
 * answers them itself.
 */
const statusesMinioDrops = new Set([408, 429, 499, 500, 502, 503, 504, 520]);

/** At most this much of an error body is read: S3's error XML is a few hundred bytes. */
const errorBodyLimit = 64 * 1024;

function tagOf(xml: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
}

async function serverErrorOf(response: http.IncomingMessage): Promise<S3ServerError> {
  let body = '';
  for await (const chunk of response) {
    if (body.length < errorBodyLimit) body += String(chunk);
  }
  const header = (name: string) => {
    const value = response.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const status = response.statusCode ?? 0;
  return new S3ServerError({
    code: tagOf(body, 'Code') ?? header('x-minio-error-code') ?? `HTTP${status}`,
    message: tagOf(body, 'Message') ?? header('x-minio-error-desc') ?? (response.statusMessage || 'no message'),
    status,
    requestId: tagOf(body, 'RequestId') ?? header('x-amz-request-id'),
  });
}

/**
 * The `transport` given to the `minio` client: Node's http(s), except that an answer with one of
 * the statuses the client would drop is read here and the request fails with an S3ServerError
 * carrying the server's code (the client rethrows request errors unchanged).
 */
export function serverErrorsKept(useSSL: boolean): Pick<typeof http, 'request'> {
  const base = useSSL ? https : http;
  const request = (options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) => {
    const sent = base.request(options, (response) => {
      if (!statusesMinioDrops.has(response.statusCode ?? 0)) {
        callback?.(response);
        return;
      }
      void serverErrorOf(response).then(
        (error) => sent.emit('error', error),
        (error: unknown) => sent.emit('error', error),
      );
    });
    return sent;
  };
  return { request: request as typeof http.request };
}

function codeOf(error: unknown): string {
  return String((error as { code?: unknown } | null)?.code ?? '');
}

/**
 * The server refused a write for want of space. MinIO answers 507 `XMinioStorageFull` when its
 * last drive check saw the drive under its free-space threshold, and 500 `InternalError` "…:
 * cause(no space left on device)" when the drive filled up since that check (or when the
 * metadata of a multipart upload could not be written). S3 says `InsufficientStorage`; other
 * servers `…StorageFull`/`…DiskFull`.
 */
export function isStorageFull(error: unknown): boolean {
  const code = codeOf(error);
  if (/StorageFull|DiskFull|InsufficientStorage/i.test(code)) return true;
  const message = String((error as { message?: unknown } | null)?.message ?? '');
  return error instanceof S3ServerError && /no space left on device|disk quota exceeded/i.test(message);
}

/** The server failed (a 5xx answer, timeouts and throttling included) or could not be reached. */
export function isServerUnavailable(error: unknown): boolean {
  if (error instanceof S3ServerError) return true;
  if (isConnectionLost(error)) return true;
  // Node's wording when the server closed the connection before answering.
  return /^socket hang up$/.test(String((error as { message?: unknown } | null)?.message ?? ''));
}

/**
 * What callers of the BlobStore see: a full store as BlobStoreFullError (503 FILE_STORAGE_FULL),
 * a failing or unreachable server as DEPENDENCY_UNAVAILABLE (503, Retry-After: 1), both with the
 * server's error as cause; anything else (access denied, a bad bucket name) unchanged.
 */
export function asBlobStoreError(error: unknown): unknown {
  if (isStorageFull(error))
    return new BlobStoreFullError(`The S3 server refused the write: ${codeOf(error)}.`, { cause: error });
  if (isServerUnavailable(error))
    return new LecternError('DEPENDENCY_UNAVAILABLE', {
      message: 'The file storage (S3) failed or is unreachable for a moment. Retry in a few seconds.',
      retryAfterSeconds: 1,
      cause: error,
    });
  return error;
}

/** Runs one S3 operation; its failure as asBlobStoreError says. */
export async function mappedErrors<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asBlobStoreError(error);
  }
}

/** Pause before the one retry: long enough for a throttled or restarting server, short for a user. */
export const retryDelayMs = 250;

/**
 * Runs an idempotent request (the PUT of a whole body, the upload of one part: the bytes are in
 * hand and sending them again replaces them) and, when the server failed (not full) or the
 * connection dropped, once more after `retryDelayMs`. The second failure is what rejects.
 */
export async function onceMoreWhenServerFailed<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (isStorageFull(error) || !isServerUnavailable(error)) throw error;
    await sleep(retryDelayMs);
    return request();
  }
}
