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

export function toRecommendationsError(error: unknown, requestId: string): ErrorResponse<RecommendationsErrorBody> {
  const e = isLecternError(error) ? error : new LecternError('INTERNAL', { cause: error });
  const status = statusOfKind[e.kind];
  const errors: Record<string, string[]> = {};
  for (const p of e.problems) (errors[p.path ?? ''] ??= []).push(p.message);
  return {
    status,
    headers:
      e.retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(e.retryAfterSeconds))) },
    body: {
      errors,
      type: null,
      title: e.message,
      status,
      detail: null,
      instance: null,
      traceId: requestId,
      error_code: catalogue[e.code].delivery,
    },
  };
}
