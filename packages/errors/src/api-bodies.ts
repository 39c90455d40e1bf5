import { catalogue } from './catalogue.ts';
import { isLecternError, LecternError } from './lectern-error.ts';
import { statusOfKind } from './http-status.ts';

export interface ErrorResponse<B> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: B;
}

/** SPEC 7.2 */
export interface ManagementErrorBody {
  request_id: string;
  error_code: number;
  message: string;
  validation_errors?: { message: string; path?: string }[];
}

/** SPEC 7.3 */
export interface DeliveryErrorBody {
  message: string;
  request_id: string | null;
  error_code: number;
  specific_code: number;
}

/**
 * Unknown errors become INTERNAL with a generic message: a stack trace or driver text never
 * reaches a client. The caller logs the original with the request id. A lost connection to the
 * database (or another backing service) becomes DEPENDENCY_UNAVAILABLE, 503 with Retry-After:
 * the request was not carried out, and retrying once the server is back succeeds.
 */
function normalise(error: unknown): LecternError {
  if (isLecternError(error)) return error;
  if (isConnectionLost(error))
    return new LecternError('DEPENDENCY_UNAVAILABLE', { cause: error, retryAfterSeconds: 1 });
  return new LecternError('INTERNAL', { cause: error });
}

/**
 * Node's socket and name-resolution errors, and PostgreSQL's connection exceptions (class 08) and
 * shutdowns (57P01–57P03).
 */
const connectionLostCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
]);

/** Whether `error` says a backing service (the database, the file storage) could not be reached or went away. */
export function isConnectionLost(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && connectionLostCodes.has(code)) return true;
  // node-postgres reports a socket closed under it (or a client used after that) by these
  // messages, without a code.
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /^(?:Connection terminated(?: unexpectedly)?|Client has encountered a connection error and is not queryable)$/.test(
      message,
    )
  );
}

function headersOf(error: LecternError): Record<string, string> {
  return error.retryAfterSeconds === undefined
    ? {}
    : { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) };
}

export function toManagementError(error: unknown, requestId: string): ErrorResponse<ManagementErrorBody> {
  const e = normalise(error);
  const body: ManagementErrorBody = {
    request_id: requestId,
    error_code: catalogue[e.code].management,
    message: e.message,
  };
  if (e.problems.length > 0) {
    body.validation_errors = e.problems.map((p) =>
      p.path === undefined ? { message: p.message } : { message: p.message, path: p.path },
    );
  }
  return { status: statusOfKind[e.kind], headers: headersOf(e), body };
}

export function toDeliveryError(error: unknown, requestId: string): ErrorResponse<DeliveryErrorBody> {
  const e = normalise(error);
  const details = e.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
  return {
    status: statusOfKind[e.kind],
    headers: headersOf(e),
    body: {
      message: details.length > 0 ? `${e.message} ${details.join(' ')}` : e.message,
      request_id: requestId,
      error_code: catalogue[e.code].delivery,
      specific_code: 0,
    },
  };
}
