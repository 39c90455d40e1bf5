import { createServer, type Server } from 'node:http';
import express, { type Express } from 'express';
import type { BlobStore } from '@lectern/core';
import { toManagementError } from '@lectern/errors';
import { answerClientErrorsOf, parserMaxHeaderBytes, type Readiness } from '@lectern/http-kit';
import { addProbeRoutes } from './http/probes.ts';
import { requestContext, type ManagementDeps } from './http/context.ts';
import { errorHandler, notFound } from './http/errors.ts';
import { urlGuard } from './http/input-guard.ts';
import { sandboxPolicy } from './http/files/asset-headers.ts';
import { binaryFilesRouter } from './http/files/binary-routes.ts';
import { defaultImageLimits, type ImageLimits } from './images/image-cache.ts';

export interface AssetsAppOptions extends ManagementDeps {
  readonly readiness: Readiness;
  /** Where asset binaries are stored; null: every binary answers 503. */
  readonly blobs: BlobStore | null;
  /** Limits of image transformation (cache bound, misses per second, pixels); default `defaultImageLimits`. */
  readonly imageLimits?: ImageLimits;
}

/**
 * The assets origin: `GET /assets/{project}/{file id}/{file name}` (binaries and transformed
 * images), `/healthz`, `/readyz` and `/metrics`, and nothing else — no API, no console, no
 * cookie — so that uploaded bytes never share an origin with the operator console (docs/assets.md).
 * Every answer, errors included, carries `nosniff` and a sandboxing CSP. Builds the app only.
 */
export function buildAssetsApp(options: AssetsAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestContext(options, 'assets'));
  app.use((_req, res, next) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('content-security-policy', sandboxPolicy);
    next();
  });
  app.use(urlGuard);

  addProbeRoutes(app, options);
  app.use(
    binaryFilesRouter({ core: options.core, blobs: options.blobs, images: options.imageLimits ?? defaultImageLimits }),
  );
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}

/** The assets app on a Node HTTP server whose parser refusals are answered in the SPEC 7.2 body. */
export function createAssetsServer(app: Express): Server {
  return answerClientErrorsOf(createServer({ maxHeaderSize: parserMaxHeaderBytes }, app), toManagementError);
}
