import type { z } from 'zod';
import { LecternError } from '@lectern/errors';

/** Validates a request body, listing every problem with its JSON path (SPEC 7.2 validation_errors). */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw new LecternError('INVALID_REQUEST_BODY', {
    problems: result.error.issues.map((issue) => ({
      message: issue.message,
      ...(issue.path.length > 0
        ? {
            path: issue.path
              .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
              .join(''),
          }
        : {}),
    })),
  });
}
