import { createServer } from 'node:http';
import express, { Router, type ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '@lectern/http-kit';
import { firstSegmentsOf, routeByFirstSegment } from './route-by-segment.ts';

/** Three routers under a project, as the Management API mounts its own (app.ts). */
function routers(): Router[] {
  const items = Router({ mergeParams: true });
  items.get('/items', (req, res) =>
    res.json({ by: 'items', project: (req.params as Record<string, string>)['projectId'] }),
  );
  items.get('/items/:key/fail', () => {
    throw new Error('items failed');
  });
  // Falls through to the next router that has a route for the same path.
  items.get('/types/shared', (_req, _res, next) => next());
  const types = Router({ mergeParams: true });
  types.get('/types', (_req, res) => res.json({ by: 'types' }));
  types.get('/types/shared', (_req, res) => res.json({ by: 'types, after items passed' }));
  const anywhere = Router({ mergeParams: true });
  anywhere.get('/:any/echo', (req, res) => res.json({ by: 'anywhere', any: req.params['any'] }));
  return [items, types, anywhere];
}

describe('routing by the first path segment', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const app = express();
    const project = Router({ mergeParams: true });
    project.use(routeByFirstSegment(routers()));
    app.use('/projects/:projectId', project);
    app.use((_req, res) => res.status(404).json({ by: 'not found' }));
    const onError: ErrorRequestHandler = (error: Error, _req, res, _next) =>
      res.status(500).json({ error: error.message });
    app.use(onError);
    server = await listen(createServer(app), { host: '127.0.0.1', port: 0 });
  });
  afterAll(() => server.close());

  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('knows which segments a router answers, and which routers may answer any path', () => {
    const [items, types, anywhere] = routers();
    expect(firstSegmentsOf(items as Router)).toEqual(new Set(['items', 'types']));
    expect(firstSegmentsOf(types as Router)).toEqual(new Set(['types']));
    expect(firstSegmentsOf(anywhere as Router)).toBe('any');
    const several = Router();
    several.get(['/a/:id', '/B'], (_req, res) => res.end());
    several.get('/', (_req, res) => res.end());
    expect(firstSegmentsOf(several)).toEqual(new Set(['a', 'b', '']));
    const withMiddleware = Router();
    withMiddleware.use((_req, _res, next) => next());
    expect(firstSegmentsOf(withMiddleware)).toBe('any');
  });

  it('answers as the routers mounted one by one would', async () => {
    expect(await get('/projects/p1/items')).toEqual({ status: 200, json: { by: 'items', project: 'p1' } });
    // Express matches paths regardless of case.
    expect(await get('/projects/p1/ITEMS')).toEqual({ status: 200, json: { by: 'items', project: 'p1' } });
    expect(await get('/projects/p1/types')).toEqual({ status: 200, json: { by: 'types' } });
    expect(await get('/projects/p1/types/shared')).toEqual({ status: 200, json: { by: 'types, after items passed' } });
    expect(await get('/projects/p1/items/echo')).toEqual({ status: 200, json: { by: 'anywhere', any: 'items' } });
    expect(await get('/projects/p1/other/echo')).toEqual({ status: 200, json: { by: 'anywhere', any: 'other' } });
    expect(await get('/projects/p1/other')).toEqual({ status: 404, json: { by: 'not found' } });
    expect(await get('/projects/p1/items/x/fail')).toEqual({ status: 500, json: { error: 'items failed' } });
  });
});
