import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeliveryChannel, DeliveryIndexReader } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { DeliveryContext } from './delivery-context.ts';
import type { CachedResponse } from './response-cache.ts';

/** What a handler reads through: one project, one channel, the index at one watermark. */
export interface ReadScope {
  readonly projectId: string;
  readonly channel: DeliveryChannel;
  readonly index: DeliveryIndexReader;
  readonly watermark: number;
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
}

const waitHeader = 'x-kc-wait-for-loading-new-content';
const pollMs = 20;

export function projectIdOf(request: FastifyRequest): string {
  return decodeURIComponent((request.params as { projectId: string }).projectId).toLowerCase();
}

/** Waits until the index has applied every committed change of the project, or the time is up. */
async function awaitFreshIndex(ctx: DeliveryContext, index: DeliveryIndexReader, projectId: string) {
  const latest = await ctx.latestSeq(projectId, true);
  const deadline = Date.now() + ctx.options.waitTimeoutMs;
  let watermark = await index.watermark(projectId);
  while (watermark < latest && Date.now() < deadline) {
    await sleep(pollMs);
    watermark = await index.watermark(projectId);
  }
  return { watermark, latest };
}

function entityTag(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

function cacheControl(ctx: DeliveryContext, request: FastifyRequest): string {
  if (ctx.channel === 'preview' || request.headers.authorization !== undefined) return 'private, no-cache';
  // A CDN may reuse an answer briefly and revalidates it with If-None-Match afterwards (cheap 304s).
  return `public, max-age=0, s-maxage=${ctx.options.cdnMaxAgeSeconds}, stale-while-revalidate=5, stale-if-error=3600`;
}

/**
 * The Delivery read path (DESIGN step 5–6): optional bounded wait for fresh content, response cache
 * keyed by (project, channel, index watermark, normalised query), rate limits for uncached
 * requests only (SPEC 8), ETag/304, Cache-Control, `X-Request-Charge` and `X-Stale-Content`.
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
  const { watermark, latest } = isWaiting
    ? await awaitFreshIndex(ctx, index, projectId)
    : await Promise.all([index.watermark(projectId), ctx.latestSeq(projectId, false)]).then(([w, l]) => ({
        watermark: w,
        latest: l,
      }));
  const key = `${projectId}\u0000${ctx.channel}\u0000${watermark}\u0000${options.key}`;
  let response: CachedResponse | undefined = ctx.cache.get(key);
  const isHit = response !== undefined;
  if (response === undefined) {
    const wait = ctx.limiter.take(`${ctx.channel}|${projectId}`);
    if (wait !== null) throw new LecternError('RATE_LIMITED', { retryAfterSeconds: wait });
    const answer = await options.compute({ projectId, channel: ctx.channel, index, watermark });
    const body = JSON.stringify(answer.body);
    response = { body, etag: entityTag(body), charge: answer.charge, headers: answer.headers ?? {} };
    ctx.cache.set(key, response);
  }
  reply.headers({
    ...response.headers,
    etag: response.etag,
    'cache-control': cacheControl(ctx, request),
    vary: 'Authorization, X-KC-Wait-For-Loading-New-Content, X-Continuation',
    'x-request-charge': String(Math.max(1, response.charge)),
    'x-stale-content': watermark < latest ? '1' : '0',
    'x-cache': isHit ? 'HIT' : 'MISS',
  });
  if (matchesEtag(request.headers['if-none-match'], response.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(response.body);
}
