import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { Router } from 'express';
import { isUuid, openBinaryFile } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { ManagementServices } from '../services.ts';
import { publicOriginOf } from '../public-origin.ts';
import { hasTransformParams } from '../../images/image-query.ts';
import { serveTransformedImage } from './transformed-route.ts';

/** Public path prefix of asset binaries; asset `url`s point here. */
export const binaryPathPrefix = '/assets';

/** The base of asset URLs as seen by the client of this request: `<public origin>/assets`. */
export function assetsBaseOf(req: Request): string {
  return `${publicOriginOf(req)}${binaryPathPrefix}`;
}

/**
 * `GET /assets/{project}/{file id}/{file name}`: the bytes of an uploaded file, with its
 * Content-Type and Content-Length, streamed from the blob store. Public, like Kontent.ai asset
 * URLs (the unguessable file id is the secret), and cacheable forever: a file never changes.
 * With an image transformation query (or `?rendition=<id>`), the transformed image instead
 * (docs/assets.md, "Image transformations").
 */
export function binaryFilesRouter(services: ManagementServices): Router {
  const router = Router();
  router.get(
    `${binaryPathPrefix}/:projectId/:fileId/:fileName`,
    async (req: Request<{ projectId: string; fileId: string; fileName: string }>, res: Response) => {
      const { projectId, fileId, fileName } = req.params;
      const query = new URL(req.originalUrl, 'http://lectern.invalid').searchParams;
      if (hasTransformParams(query) || query.has('rendition')) {
        await serveTransformedImage({ services, req, res, query });
        return;
      }
      const found =
        isUuid(projectId) && isUuid(fileId)
          ? await openBinaryFile(services.core, services.blobs, {
              projectId: projectId.toLowerCase(),
              fileId: fileId.toLowerCase(),
              fileName,
            })
          : null;
      if (!found) throw new LecternError('ROUTE_NOT_FOUND', { message: 'No file exists at this URL.' });
      // Node's own setHeader: Express's `set` would append a charset to text types.
      res.statusCode = 200;
      res.setHeader('content-type', found.file.contentType);
      res.setHeader('content-length', String(found.file.size));
      res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      await pipeline(found.body, res);
    },
  );
  return router;
}
