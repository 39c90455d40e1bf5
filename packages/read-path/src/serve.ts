import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeliveryChannel, DeliveryIndexReader, ReadPin } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { DeliveryContext, ModelAt } from './delivery-context.ts';
import type { CachedResponse } from './response-cache.ts';

/** What a handler reads through: one project, one channel, the index at one watermark. */
export interface ReadScope {
  readonly projectId: string;
  readonly channel: DeliveryChannel;
  readonly index: DeliveryIndexReader;
  readonly watermark: number;
  /**
   * `watermark` with when it was last confirmed: pass it to `queryItems` (the search index then
   * reads at it without reading the watermark again). Absent when the tracker holds none.
   */
  readonly pin?: ReadPin | undefined;
  /** The project's types, taxonomies and languages at this watermark. */
  readonly model: ModelAt;
}

export interface Answer {
  readonly body: unknown;
  /** `X-Request-Charge`: objects in the response (items plus `modular_content` for content). */
  readonly charge: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ServeOptions {
  /** The query in normalised form (route, path parameters, parsed query, paging token). */
  readonly key: string;
  readonly compute: (scope: ReadScope) => Promise<Answer>;
  /** Also keep the answer under the request's URL for `serveFromCache` (default true; false when the body holds the query). */
  readonly isUrlKeyed?: boolean;
  /** The uncached rate limit's counter (default: per channel and project). */
  readonly limitKey?: string;
}

export const waitHeader = 'x-kc-wait-for-loading-new-content';

export function projectIdOf(request: FastifyRequest): string {
  return decodeURIComponent((request.params as { projectId: string }).projectId).toLowerCase();
}

/**
 * The watermark to read at and the latest committed sequence. Both come from memory; with the wait
 * header the latest sequence is read from the store (read your writes) and the request waits,
 * bounded, until the index has applied it. The watermark and its pin are taken together, after
 * the waits (a signal may have raised it meanwhile; it never goes back).
 */
async function positions(ctx: DeliveryContext, projectId: string, isWaiting: boolean) {
  let watermark: number;
  let latest: number;
  if (isWaiting) {
    latest = await ctx.committed.refresh(projectId);
    watermark = await ctx.indexed.waitFor({ projectId, target: latest, timeoutMs: ctx.options.waitTimeoutMs });
  } else {
    [watermark, latest] = await Promise.all([ctx.indexed.get(projectId), ctx.committed.get(projectId)]);
  }
  const held = ctx.indexed.held(projectId);
  if (held === undefined || held.seq < watermark) return { watermark, latest, pin: undefined };
  return { watermark: held.seq, latest, pin: { watermark: held.seq, readAt: held.confirmedAt } };
}

function entityTag(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** `Cache-Control` of a Delivery answer: private for Preview and for a request with a key. */
export function cacheControl(ctx: DeliveryContext, request: { headers: IncomingHttpHeaders }): string {
  if (ctx.channel === 'preview' || request.headers.authorization !== undefined) return 'private, no-cache';
  // A CDN may reuse an answer briefly and revalidates it with If-None-Match afterwards (cheap 304s).
  return `public, max-age=0, s-maxage=${ctx.options.cdnMaxAgeSeconds}, stale-while-revalidate=5, stale-if-error=3600`;
}

const vary = 'Authorization, X-KC-Wait-For-Loading-New-Content, X-Continuation';

/** The request as it came (path, query string, paging header): the first cache key looked up. */
export function requestKey(request: { url: string; headers: IncomingHttpHeaders }): string {
  const continuation = request.headers['x-continuation'];
  return `url\u0000${request.url}\u0000${Array.isArray(continuation) ? continuation.join(',') : (continuation ?? '')}`;
}

function send(
  ctx: DeliveryContext,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { response: CachedResponse; isHit: boolean; isStale: boolean },
): FastifyReply {
  const { response } = answer;
  reply.headers(response.headers);
  reply.header('cache-control', cacheControl(ctx, request));
  reply.header('x-stale-content', answer.isStale ? '1' : '0');
  reply.header('x-cache', answer.isHit ? 'HIT' : 'MISS');
  if (matchesEtag(request.headers['if-none-match'], response.etag)) {
    reply.removeHeader('content-type');
    return reply.code(304).send();
  }
  return reply.send(response.body);
}

/**
 * The cache hit without parsing anything: a request whose exact URL (and paging header) was
 * answered at the current watermark gets the stored answer here, before its route handler runs
 * (a Fastify preHandler, after authentication). Requests that wait for fresh content go on to
 * `serve`. Returns whether it answered.
 */
export async function serveFromCache(ctx: DeliveryContext, request: FastifyRequest, reply: FastifyReply) {
  if (ctx.index === null || String(request.headers[waitHeader] ?? '').toLowerCase() === 'true') return false;
  const projectId = (request.params as { projectId?: string }).projectId;
  if (projectId === undefined) return false;
  const id = decodeURIComponent(projectId).toLowerCase();
  const { watermark, latest } = await positions(ctx, id, false);
  const response = ctx.cache.get(`${id}\u0000${ctx.channel}\u0000${watermark}\u0000${requestKey(request)}`);
  if (response === undefined) return false;
  send(ctx, request, reply, { response, isHit: true, isStale: watermark < latest });
  return true;
}

/**
 * The Delivery read path (DESIGN step 5–6): optional bounded wait for fresh content, response cache
 * keyed by (project, channel, index watermark, normalised query) — and by the request as it came,
 * which `serveFromCache` looks up first —, rate limits for uncached requests only (SPEC 8),
 * ETag/304, Cache-Control, `X-Request-Charge` and `X-Stale-Content`. A cache hit costs no database
 * round trip and sends the stored bytes.
 */
export async function serve(
  ctx: DeliveryContext,
  request: FastifyRequest,
  reply: FastifyReply,
  options: ServeOptions,
): Promise<FastifyReply> {
  const index = ctx.index;
  if (index === null) {
    throw new LecternError('UNAVAILABLE', { message: 'The delivery index is not configured for this server.' });
  }
  const projectId = projectIdOf(request);
  const isWaiting = String(request.headers[waitHeader] ?? '').toLowerCase() === 'true';
  const { watermark, latest, pin } = await positions(ctx, projectId, isWaiting);
  const prefix = `${projectId}\u0000${ctx.channel}\u0000${watermark}\u0000`;
  const key = `${prefix}${options.key}`;
  let response: CachedResponse | undefined = ctx.cache.get(key);
  const isHit = response !== undefined;
  if (response === undefined) {
    const wait = await ctx.limiter.take(options.limitKey ?? `${ctx.channel}|${projectId}`);
    if (wait !== null) throw new LecternError('RATE_LIMITED', { retryAfterSeconds: wait });
    const answer = await options.compute({
      projectId,
      channel: ctx.channel,
      index,
      watermark,
      pin,
      model: ctx.modelAt(projectId, watermark),
    });
    const text = JSON.stringify(answer.body);
    const etag = entityTag(text);
    response = {
      body: Buffer.from(text),
      etag,
      headers: {
        ...answer.headers,
        etag,
        vary,
        'x-request-charge': String(Math.max(1, answer.charge)),
        'content-type': 'application/json; charset=utf-8',
      },
      route: request.routeOptions.url ?? 'unmatched',
    };
    ctx.cache.set(key, response);
  }
  if (options.isUrlKeyed !== false) ctx.cache.set(`${prefix}${requestKey(request)}`, response);
  return send(ctx, request, reply, { response, isHit, isStale: watermark < latest });
}
