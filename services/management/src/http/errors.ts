import type { NextFunction, Request, Response } from 'express';
import { LecternError, toManagementError } from '@lectern/errors';
import type { Logger } from '@lectern/http-kit';
import { locals } from './context.ts';

/**
 * Framework failures as catalogue errors: the router's URIError (a path parameter that is not
 * valid percent-encoding) and body-parser's errors (too large, unsupported media type or
 * encoding, a body that does not decompress, malformed JSON). The one place Management maps
 * them; the Node parser's are answered by `answerClientErrors`.
 */
function fromFramework(error: unknown, req: Request): LecternError | null {
  if (error instanceof URIError) return new LecternError('MALFORMED_URL');
  const e = error as { type?: string; status?: number; message?: string; code?: string };
  const message = e?.message ?? 'The body could not be read.';
  if (e?.type === 'entity.too.large') return new LecternError('PAYLOAD_TOO_LARGE');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported' || e?.status === 415) {
    return new LecternError('UNSUPPORTED_MEDIA_TYPE', { problems: [{ message }] });
  }
  if (e?.status === undefined || e.status >= 500 || e.status < 400) return null;
  const encoding = req.headers['content-encoding']?.slice(0, 40);
  // A zlib or brotli failure carries no body-parser type: the body is not what its header says.
  if (e.type === undefined && encoding !== undefined && encoding !== 'identity') {
    return new LecternError('CONTENT_ENCODING_INVALID', {
      message: `The request body could not be decompressed as its 'Content-Encoding: ${encoding}' header says (${message}). Send it uncompressed, or compress it with ${encoding}.`,
    });
  }
  return new LecternError('INVALID_REQUEST_BODY', { problems: [{ message }] });
}

/** The one place where errors become SPEC 7.2 bodies. Unknown errors are logged and answered 500. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const requestId = locals(res).requestId;
    const mapped = error instanceof LecternError ? error : (fromFramework(error, req) ?? error);
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
