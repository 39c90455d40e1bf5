import type { NextFunction, Request, Response } from 'express';
import { LecternError, toManagementError } from '@lectern/errors';
import type { Logger } from '@lectern/http-kit';
import { locals } from './context.ts';

/** Body-parser failures (malformed JSON, too large, bad encoding) as catalogue errors. */
function fromBodyParser(error: unknown): LecternError | null {
  const e = error as { type?: string; status?: number; message?: string };
  if (e?.type === 'entity.too.large') return new LecternError('PAYLOAD_TOO_LARGE');
  if (typeof e?.type === 'string' && e.status !== undefined && e.status < 500) {
    return new LecternError('INVALID_REQUEST_BODY', {
      problems: [{ message: e.message ?? 'The body could not be read.' }],
    });
  }
  return null;
}

/** The one place where errors become SPEC 7.2 bodies. Unknown errors are logged and answered 500. */
export function errorHandler(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const requestId = locals(res).requestId;
    const mapped = error instanceof LecternError ? error : (fromBodyParser(error) ?? error);
    const response = toManagementError(mapped, requestId);
    if (response.status >= 500) logger.error({ err: error, requestId }, 'request failed');
    res.status(response.status).set(response.headers).json(response.body);
  };
}

export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(new LecternError('ROUTE_NOT_FOUND'));
}

/** For `router.route(path).get(…).all(methodNotAllowed)`: the path exists, the method does not. */
export function methodNotAllowed(_req: Request, _res: Response, next: NextFunction): void {
  next(new LecternError('METHOD_NOT_ALLOWED'));
}
