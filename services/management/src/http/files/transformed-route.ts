import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { findImageSource, isUuid, openBinaryFile } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { parseImageQuery } from '../../images/image-query.ts';
import { sourceFormatOf } from '../../images/image-transform.ts';
import { defaultImageLimits } from '../../images/image-cache.ts';
import { planTransform, resolvePlan, sourceReader, transformedImage } from '../../images/transformed-image.ts';
import type { ManagementServices } from '../services.ts';
import { setAssetHeaders } from './asset-headers.ts';

/** Output named by URL alone stays right forever; `?rendition=` follows its preset, which can change. */
const immutable = 'public, max-age=31536000, immutable';
const followsRendition = 'public, max-age=300';

/**
 * The query the image is made with: the rendition's stored query (when `rendition` names one),
 * overridden parameter by parameter by the URL's own.
 */
function effectiveQuery(query: URLSearchParams, renditionQuery: string | null): URLSearchParams {
  if (renditionQuery === null) return query;
  const merged = new URLSearchParams(renditionQuery);
  for (const name of new Set(query.keys())) {
    if (name === 'rendition') continue;
    merged.delete(name);
    for (const v of query.getAll(name)) merged.append(name, v);
  }
  return merged;
}

/**
 * `GET /assets/{project}/{file}/{name}?w=…` (or `?rendition=<id>`): the transformed image, from
 * the blob-store cache or made by sharp. Other files than JPEG, PNG, GIF, WebP and AVIF are
 * served as they are (the query is ignored, as at Kontent.ai); bad parameters are a 400.
 */
export async function serveTransformedImage(options: {
  services: ManagementServices;
  req: Request<{ projectId: string; fileId: string; fileName: string }>;
  res: Response;
  query: URLSearchParams;
}): Promise<void> {
  const { services, req, res, query } = options;
  const { projectId, fileId, fileName } = req.params;
  const blobs = services.blobs;
  if (!blobs) throw new LecternError('FILE_STORAGE_UNAVAILABLE');
  const renditionId = query.get('rendition') ?? undefined;
  if (renditionId !== undefined && !isUuid(renditionId)) throw new LecternError('RENDITION_NOT_FOUND');
  const found =
    isUuid(projectId) && isUuid(fileId)
      ? await findImageSource(services.core, {
          projectId: projectId.toLowerCase(),
          fileId: fileId.toLowerCase(),
          fileName,
          renditionId: renditionId?.toLowerCase(),
        })
      : null;
  if (!found) throw new LecternError('ROUTE_NOT_FOUND', { message: 'No file exists at this URL.' });
  const { file } = found;
  // Other files ignore the query (even a malformed one), as at Kontent.ai.
  const spec =
    sourceFormatOf(file.contentType) === null ? null : parseImageQuery(effectiveQuery(query, found.renditionQuery));
  const plan = spec && planTransform({ file, spec, accept: req.get('accept') ?? '' });
  const limits = services.images ?? defaultImageLimits;
  const source = sourceReader(blobs, file);
  // Resolved against the source's size before the cache is asked: a request beyond the source
  // (a `w` wider than it, say) is clamped to it, and may come down to the original itself.
  const resolved = plan && (await resolvePlan({ file, plan, limits, source }));
  res.statusCode = 200;
  if (!spec || !plan || !resolved) {
    const original = await openBinaryFile(services.core, blobs, {
      projectId: file.projectId,
      fileId: file.id,
      fileName,
    });
    if (!original) throw new LecternError('ROUTE_NOT_FOUND', { message: 'No file exists at this URL.' });
    setAssetHeaders(res, { contentType: file.contentType, fileName });
    res.setHeader('content-length', String(file.size));
    res.setHeader('cache-control', immutable);
    await pipeline(original.body, res);
    return;
  }
  res.setHeader('etag', resolved.etag);
  res.setHeader('cache-control', renditionId === undefined ? immutable : followsRendition);
  if (spec.isAutoFormat) res.setHeader('vary', 'Accept');
  if (
    req
      .get('if-none-match')
      ?.split(',')
      .some((t) => t.trim() === resolved.etag)
  ) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const image = await transformedImage({ core: services.core, blobs, limits, file, resolved, source });
  setAssetHeaders(res, { contentType: image.contentType, fileName });
  res.setHeader('content-length', String(image.size));
  await pipeline(image.body, res);
}
