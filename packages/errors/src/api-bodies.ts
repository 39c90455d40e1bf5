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
 * reaches a client. The caller logs the original with the request id.
 */
function normalise(error: unknown): LecternError {
  return isLecternError(error) ? error : new LecternError('INTERNAL', { cause: error });
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
