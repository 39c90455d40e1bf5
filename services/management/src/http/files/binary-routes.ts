import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { Router } from 'express';
import { isUuid, openBinaryFile } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { ManagementServices } from '../services.ts';
import { assetsOriginOf } from '../assets-origin.ts';
import { publicOriginOf } from '../public-origin.ts';
import { hasTransformParams } from '../../images/image-query.ts';
import { serveTransformedImage } from './transformed-route.ts';
import { setAssetHeaders } from './asset-headers.ts';

/** Public path prefix of asset binaries; asset `url`s point here. */
export const binaryPathPrefix = '/assets';

/** The base of asset URLs as seen by the client of this request: `<assets origin>/assets`. */
export function assetsBaseOf(req: Request): string {
  return `${assetsOriginOf(req)}${binaryPathPrefix}`;
}

/**
 * The Management origin's answer to `GET /assets/…`: a 302 to the same path and query on the
 * assets origin, with no body, so asset URLs stored before the assets origin existed (in content,
 * in old Delivery documents) keep working without anything uploaded ever being served next to the
 * console. Temporary (302): the target follows the settings and the request's host.
 */
export function binaryFilesRedirectRouter(): Router {
  const router = Router();
  router.get(`${binaryPathPrefix}/:projectId/:fileId/:fileName`, (req, res, next) => {
    const target = assetsOriginOf(req);
    // No assets origin known (an app built without one): nothing to send the client to.
    if (target === publicOriginOf(req)) {
      next(new LecternError('ROUTE_NOT_FOUND', { message: 'Asset binaries are not served on this origin.' }));
      return;
    }
    const { pathname, search } = new URL(req.originalUrl, 'http://lectern.invalid');
    res.statusCode = 302;
    res.setHeader('location', `${target}${pathname}${search}`);
    res.setHeader('x-content-type-options', 'nosniff');
    // Never kept by a shared cache: the target may follow the request's Host.
    res.setHeader('cache-control', 'no-store');
    res.end();
  });
  return router;
}

/**
 * `GET /assets/{project}/{file id}/{file name}`: the bytes of an uploaded file, with its
 * Content-Type and Content-Length, streamed from the blob store. Public, like Kontent.ai asset
 * URLs (the unguessable file id is the secret), and cacheable forever: a file never changes.
 * With an image transformation query (or `?rendition=<id>`), the transformed image instead
 * (docs/assets.md, "Image transformations"). Served by the assets app only (`assets-app.ts`),
 * never on the console's origin; every answer carries `setAssetHeaders`' headers.
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
      res.statusCode = 200;
      setAssetHeaders(res, { contentType: found.file.contentType, fileName });
      res.setHeader('content-length', String(found.file.size));
      res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      await pipeline(found.body, res);
    },
  );
  return router;
}
