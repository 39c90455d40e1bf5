import type { ErrorKind } from './catalogue.ts';

/** The HTTP status of each kind, the same in every API. */
export const statusOfKind: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};
