import type { Express } from 'express';
import { livenessOfProcess, type ProcessMetrics, type Readiness } from '@lectern/http-kit';

/** `/healthz` (the process's liveness), `/readyz` and `/metrics` on an Express app. */
export function addProbeRoutes(app: Express, options: { readiness: Readiness; metrics: ProcessMetrics }): void {
  app.get('/healthz', (_req, res) => {
    const answer = livenessOfProcess().check();
    res.status(answer.status).json(answer.body);
  });
  app.get('/readyz', async (_req, res) => {
    const isReady = await options.readiness.check();
    res.status(isReady ? 200 : 503).json({ status: isReady ? 'ready' : 'not ready' });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  });
}
