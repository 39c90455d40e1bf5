import type { FastifyInstance } from 'fastify';
import { serveUsedIn } from '../content/used-in.ts';
import { getItem } from './get-item.ts';
import { itemsFeed } from './items-feed.ts';
import { listItems } from './list-items.ts';
import type { DeliveryContext } from '@lectern/read-path';

export function registerItemRoutes(app: FastifyInstance, ctx: DeliveryContext): void {
  app.get('/:projectId/items', (request, reply) => listItems(ctx, request, reply));
  app.get('/:projectId/items/:codename', (request, reply) => getItem(ctx, request, reply));
  app.get('/:projectId/items-feed', (request, reply) => itemsFeed(ctx, request, reply));
  app.get('/:projectId/items/:codename/used-in', (request, reply) =>
    serveUsedIn(ctx, request, reply, { itemCodename: (request.params as { codename: string }).codename }),
  );
}
