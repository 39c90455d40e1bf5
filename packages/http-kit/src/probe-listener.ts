import { toDeliveryError } from '@lectern/errors';
import { createFastifyService } from './fastify-service.ts';
import { listen, type Listening } from './listen.ts';
import type { ProcessMetrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';
import type { ServiceStart } from './service-main.ts';

/**
 * The listener of a worker (the indexer, the webhook worker): `/healthz`, `/readyz` and
 * `/metrics` only, on LECTERN_HOST:LECTERN_PORT, as a start step. On stop, readiness drains first,
 * then the listener closes.
 */
export async function listenProbes(
  start: Pick<ServiceStart, 'logger' | 'onStop' | 'step'>,
  options: { service: string; host: string; port: number; metrics: ProcessMetrics; readiness: Readiness },
): Promise<Listening> {
  const { host, port, readiness } = options;
  const app = createFastifyService({
    service: options.service,
    metrics: options.metrics,
    readiness,
    logger: start.logger,
    toErrorResponse: toDeliveryError,
  });
  const listening = await start.step(`cannot listen on ${host}:${port} (check LECTERN_HOST, LECTERN_PORT)`, () =>
    listen(app, { host, port }).catch(async (error: unknown) => {
      await app.close();
      throw error;
    }),
  );
  start.onStop(async () => {
    readiness.drain();
    await listening.close();
  });
  return listening;
}
