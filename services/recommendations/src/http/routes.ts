import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  QueryRangeError,
  words,
  type CoreDeps,
  type EmbeddingProvider,
  type RecsReader,
  type RecsTracking,
  type Signals,
} from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { createRecsAuthenticator } from '../auth.ts';
import {
  parseRecommendBody,
  parseSearchBody,
  parseTrackVisitBody,
  parseTrackVisitorBody,
  type VisitorInput,
} from './schemas.ts';
import { createGeoLocator, type GeoLocate } from '../geolocation.ts';

/** What the Recommendations API runs on. */
export interface RecsEngine {
  readonly core: CoreDeps;
  readonly reader: RecsReader;
  readonly tracking: RecsTracking;
  readonly embedder: EmbeddingProvider;
  /** The `access` signal drops cached authentication when a key changes. */
  readonly signals?: Signals;
  /** Locates a visitor's IP (default: the offline country database, see geolocation.ts). */
  readonly geoLocate?: GeoLocate;
}

/**
 * SPEC 4.5: every route is a POST with a JSON body, authorised by the project's recommendations
 * key; `/seach/items` is the .NET client's spelling of `/search/items`.
 */
export function registerRecsRoutes(app: FastifyInstance, engine: RecsEngine): void {
  const auth = createRecsAuthenticator({ core: engine.core, ...(engine.signals ? { signals: engine.signals } : {}) });
  const { tracking, reader, core } = engine;
  const projectOf = (request: FastifyRequest) => auth.projectOf(request.headers.authorization);
  const now = () => core.clock.now();

  const geoLocate = engine.geoLocate ?? createGeoLocator();

  /**
   * Keeps what the visitor told. The IP only fills the country the client did not give (SPEC 4.5
   * rules 5–6): it is looked up, then dropped, never stored.
   */
  const recordVisitor = async (projectId: string, visitId: string, visitor: VisitorInput) => {
    const found = visitor.ip !== null && !visitor.location?.['country'] ? await geoLocate(visitor.ip) : null;
    const location = found === null ? visitor.location : { ...found, ...visitor.location };
    await tracking.recordVisitor({
      projectId,
      visitId,
      referer: visitor.referer,
      location,
      custom: visitor.custom,
      at: now(),
    });
  };

  app.post('/api/v2/recommend/items', async (request) => {
    const projectId = await projectOf(request);
    const input = parseRecommendBody(request.body);
    const at = now();
    const codenames = await reader
      .recommend({
        projectId,
        currentItemCodename: input.currentItemCodename,
        requestedType: input.requestedTypeCodename,
        limit: input.responseLimit,
        scenario: input.scenario,
        filter: input.filter,
        booster: input.booster,
        nowMs: at.getTime(),
      })
      .catch((error: unknown) => {
        if (!(error instanceof QueryRangeError)) throw error;
        throw new LecternError('INVALID_REQUEST_BODY', {
          message: 'One or more validation errors occurred.',
          problems: [{ path: 'recommendationSettings', message: error.message }],
        });
      });
    // Recorded after the read, so a request the read refuses (above) stores nothing.
    if (input.visitor) await recordVisitor(projectId, input.visitId, input.visitor);
    if (!(await tracking.isManualTracking(projectId)))
      await tracking.recordVisit({
        projectId,
        visitId: input.visitId,
        codename: input.currentItemCodename,
        kind: 'visit',
        at,
      });
    return codenames.map((codename) => ({ codename }));
  });

  const search = async (request: FastifyRequest) => {
    const projectId = await projectOf(request);
    const input = parseSearchBody(request.body);
    const stats = await reader.termStats({ projectId, terms: words(input.query) });
    const [embedding] = await engine.embedder.embed([input.query], { stats });
    const codenames = await reader.search({
      projectId,
      text: input.query,
      embedding: embedding ?? [],
      requestedType: input.requestedTypeCodename,
      limit: input.resultCount,
    });
    return codenames.map((codename) => ({ codename }));
  };
  app.post('/api/v2/search/items', search);
  app.post('/api/v2/seach/items', search);

  for (const kind of ['visit', 'conversion', 'portion'] as const)
    app.post(`/api/v2/track/${kind}`, async (request, reply) => {
      const projectId = await projectOf(request);
      const input = parseTrackVisitBody(request.body, { isPortion: kind === 'portion' });
      await tracking.recordVisit({
        projectId,
        visitId: input.visitId,
        codename: input.currentItemCodename,
        kind,
        ...(input.portionPercentage === null ? {} : { portion: input.portionPercentage }),
        at: now(),
      });
      return reply.code(200).send();
    });

  app.post('/api/v2/track/visitor', async (request, reply) => {
    const projectId = await projectOf(request);
    const input = parseTrackVisitorBody(request.body);
    await recordVisitor(projectId, input.visitId, input.visitor);
    return reply.code(200).send();
  });
}
