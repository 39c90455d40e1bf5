import type { Request, Response } from 'express';
import { Router } from 'express';
import { defaultMaxFileBytes, uploadBinaryFile } from '@lectern/core';
import { methodNotAllowed } from '../errors.ts';
import type { ManagementServices } from '../services.ts';
import { modelInput } from '../shared/model-input.ts';

export interface FilesOptions extends ManagementServices {
  /** Largest accepted upload in bytes (default 100 MiB). */
  readonly maxFileBytes?: number | undefined;
}

/**
 * `POST /files/{file_name}` (reference §2.8): the raw body is streamed into the blob store. The
 * app's JSON parser must skip this path (see `isFileUpload`), or a JSON file would be parsed.
 * Content-Type is required (400, error_code 205); so is Content-Length (400, error_code 206:
 * Lectern refuses chunked uploads so a too-large file is refused before a byte is stored).
 */
export function filesRouter(options: FilesOptions): Router {
  const router = Router({ mergeParams: true });
  const maxBytes = options.maxFileBytes ?? defaultMaxFileBytes;
  router
    .route('/files/:fileName')
    .post(async (req: Request<{ fileName: string }>, res: Response) => {
      const file = await uploadBinaryFile(options.core, options.blobs, {
        ...modelInput(req, res),
        fileName: req.params.fileName,
        contentType: req.headers['content-type'],
        contentLength: req.headers['content-length'],
        body: req,
        maxBytes,
      });
      res.json({ id: file.id, type: 'internal' });
    })
    .all(methodNotAllowed);
  return router;
}

/** True for a binary upload, whose body the JSON parser must leave unread. */
export function isFileUpload(req: Request): boolean {
  // Under `/v1`, `/v2` (keys) and `/app/api/v2` (people signed in to the editor).
  return req.method === 'POST' && /^(?:\/app\/api)?\/v[12]\/projects\/[^/]+\/files\/[^/]+\/?$/.test(req.path);
}
