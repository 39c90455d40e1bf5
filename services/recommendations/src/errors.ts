import { catalogue, isLecternError, LecternError, statusOfKind, type ErrorResponse } from '@lectern/errors';

/** SPEC 7.5: problem details with an `errors` map of property → messages. */
export interface RecommendationsErrorBody {
  errors: Record<string, string[]>;
  type: string | null;
  title: string | null;
  status: number | null;
  detail: string | null;
  instance: string | null;
  traceId: string;
  error_code: number;
}

/** The RFC section of each status, as ASP.NET problem details link it (`type`). */
const typeLinks: Readonly<Record<number, string>> = {
  400: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
  401: 'https://tools.ietf.org/html/rfc7235#section-3.1',
  403: 'https://tools.ietf.org/html/rfc7231#section-6.5.3',
  404: 'https://tools.ietf.org/html/rfc7231#section-6.5.4',
  405: 'https://tools.ietf.org/html/rfc7231#section-6.5.5',
  408: 'https://tools.ietf.org/html/rfc7231#section-6.5.7',
  413: 'https://tools.ietf.org/html/rfc7231#section-6.5.11',
  415: 'https://tools.ietf.org/html/rfc7231#section-6.5.13',
  429: 'https://tools.ietf.org/html/rfc6585#section-4',
  500: 'https://tools.ietf.org/html/rfc7231#section-6.6.1',
  503: 'https://tools.ietf.org/html/rfc7231#section-6.6.4',
};

/** A W3C trace id (`00-<trace>-<span>-00`, as the recorded bodies carry) built from the request id. */
export function traceIdOf(requestId: string): string {
  const hex = requestId
    .replace(/[^0-9a-f]/gi, '')
    .toLowerCase()
    .padEnd(32, '0')
    .slice(0, 32);
  return `00-${hex}-${hex.slice(0, 16)}-00`;
}

export function toRecommendationsError(error: unknown, requestId: string): ErrorResponse<RecommendationsErrorBody> {
  const e = isLecternError(error) ? error : new LecternError('INTERNAL', { cause: error });
  const status = statusOfKind[e.kind];
  const errors: Record<string, string[]> = {};
  for (const p of e.problems) (errors[p.path ?? ''] ??= []).push(p.message);
  const isValidation = e.problems.length > 0 && status === 400;
  return {
    status,
    headers:
      e.retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(e.retryAfterSeconds))) },
    body: {
      errors,
      type: typeLinks[status] ?? null,
      title: isValidation ? 'One or more validation errors occurred.' : e.message,
      status,
      detail: isValidation ? e.message : null,
      instance: null,
      traceId: traceIdOf(requestId),
      error_code: catalogue[e.code].delivery,
    },
  };
}
