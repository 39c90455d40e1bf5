import type { FastifyInstance } from 'fastify';
import { toDeliveryError } from '@lectern/errors';
import { createFastifyService } from './fastify-service.ts';
import { listen, type Listening } from './listen.ts';
import type { ProcessMetrics } from './metrics.ts';
import type { Readiness } from './readiness.ts';
import type { ServiceStart } from './service-main.ts';

/**
 * Listens a Fastify app of a service main as a start step, with the service's timeouts and grace
 * (`start.server`): a failure names the address and the settings to check, and closes the app
 * (its hooks and plugins) before the step fails.
 */
export async function listenStep(
  start: Pick<ServiceStart, 'step' | 'server'>,
  app: FastifyInstance,
  options: { host: string; port: number; portEnv: string },
): Promise<Listening> {
  const { host, port } = options;
  return start.step(`cannot listen on ${host}:${port} (check LECTERN_HOST, ${options.portEnv})`, () =>
    listen(app, { host, port, server: start.server }).catch(async (error: unknown) => {
      await app.close();
      throw error;
    }),
  );
}

/**
 * The listener of a worker (the indexer, the webhook worker): `/healthz`, `/readyz` and
 * `/metrics` only, on LECTERN_HOST:LECTERN_PORT, as a start step. On stop, readiness drains first,
 * then the listener closes.
 */
export async function listenProbes(
  start: Pick<ServiceStart, 'logger' | 'onStop' | 'step' | 'server'>,
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
  const listening = await listenStep(start, app, { host, port, portEnv: 'LECTERN_PORT' });
  start.onStop(async () => {
    readiness.drain();
    await listening.close();
  });
  return listening;
}
