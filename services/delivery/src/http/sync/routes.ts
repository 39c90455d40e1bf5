import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LecternError } from '@lectern/errors';
import { type DeliveryContext, projectIdOf } from '@lectern/read-path';
import { readSyncPage } from './sync-page.ts';
import { readSyncToken, writeSyncToken } from './sync-token.ts';

const emptyBody = JSON.stringify({ items: [], types: [], languages: [], taxonomies: [] });

function indexOf(ctx: DeliveryContext) {
  if (ctx.index === null) {
    throw new LecternError('UNAVAILABLE', { message: 'The delivery index is not configured for this server.' });
  }
  return ctx.index;
}

/** Sync answers are positions in a change stream: never cached, always `X-Continuation`. */
function send(reply: FastifyReply, options: { body: string; token: string; charge: number }) {
  return reply
    .headers({
      'x-continuation': options.token,
      'cache-control': 'no-store',
      'x-request-charge': String(Math.max(1, options.charge)),
    })
    .type('application/json; charset=utf-8')
    .send(options.body);
}

async function takeRate(ctx: DeliveryContext, projectId: string) {
  const wait = await ctx.limiter.take(`${ctx.channel}|${projectId}`);
  if (wait !== null) throw new LecternError('RATE_LIMITED', { retryAfterSeconds: wait });
}

/** POST /v2/{project}/sync/init: empty arrays and a token at the channel's current position. */
async function initSync(ctx: DeliveryContext, request: FastifyRequest, reply: FastifyReply) {
  const index = indexOf(ctx);
  const projectId = projectIdOf(request);
  await takeRate(ctx, projectId);
  const seq = await index.watermark(projectId);
  return send(reply, {
    body: emptyBody,
    token: writeSyncToken({ projectId, channel: ctx.channel, seq, after: null }),
    charge: 0,
  });
}

/**
 * GET /v2/{project}/sync with `X-Continuation`: the changes after that position, one page, and
 * the token to continue with. Clients page until an answer has all four arrays empty.
 */
async function syncChanges(ctx: DeliveryContext, request: FastifyRequest, reply: FastifyReply) {
  const index = indexOf(ctx);
  const projectId = projectIdOf(request);
  const from = readSyncToken(request.headers['x-continuation'], { projectId, channel: ctx.channel });
  await takeRate(ctx, projectId);
  const page = await readSyncPage(index, { from, pageSize: ctx.options.feedPageSize });
  return send(reply, {
    body: JSON.stringify(page.body),
    token: writeSyncToken(page.next),
    charge: page.body.items.length + page.body.types.length + page.body.languages.length + page.body.taxonomies.length,
  });
}

/**
 * Sync API v2 (reference 2.1) under `/v2/{project}/…`, where `@kontent-ai/sync-sdk` calls it
 * (`${baseUrl}/${environmentId}/sync…` with a base URL ending in `/v2`). Page size: the feed page
 * size. The init POST carries no body but the SDK labels it `application/json`, so this scope
 * accepts and ignores any body instead of failing on empty JSON.
 */
export function registerSyncRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, _body, done) => {
      done(null, undefined);
    });
    scope.post('/v2/:projectId/sync/init', (request, reply) => initSync(ctx, request, reply));
    scope.get('/v2/:projectId/sync', (request, reply) => syncChanges(ctx, request, reply));
  });
}
