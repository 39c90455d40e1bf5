import type { FastifyInstance } from 'fastify';
import type { EventBus } from '@lectern/core';
import { toDeliveryError } from '@lectern/errors';
import { registerConsumerLag } from './event-metrics.ts';
import { createFastifyService } from './fastify-service.ts';
import { listen, type Listening } from './listen.ts';
import { createProcessMetrics, type ProcessMetrics } from './metrics.ts';
import { createReadiness, type Readiness } from './readiness.ts';
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

/**
 * The probes of a change-event consumer (the indexer, the webhook worker): ready once consuming
 * (`markConsuming`) and while `checks` pass, with the consumer lag of its `groups` in /metrics.
 * `register` adds the worker's own metrics before the listener starts (its result: `registered`).
 */
export async function listenConsumerProbes<R = undefined>(
  start: Pick<ServiceStart, 'logger' | 'onStop' | 'step' | 'server'>,
  options: {
    service: string;
    host: string;
    port: number;
    bus: EventBus;
    groups: readonly string[];
    checks: readonly (() => Promise<void>)[];
    register?: (metrics: ProcessMetrics) => R;
  },
): Promise<{ listening: Listening; metrics: ProcessMetrics; registered: R | undefined; markConsuming: () => void }> {
  let isConsuming = false;
  const metrics = createProcessMetrics();
  const readiness = createReadiness([
    ...options.checks,
    async () => {
      if (!isConsuming) throw new Error('not consuming yet');
    },
  ]);
  registerConsumerLag(metrics, { bus: options.bus, groups: options.groups });
  const registered = options.register?.(metrics);
  // Listening first: liveness answers during a long catch-up, readiness once consuming.
  const listening = await listenProbes(start, {
    service: options.service,
    host: options.host,
    port: options.port,
    metrics,
    readiness,
  });
  return {
    listening,
    metrics,
    registered,
    markConsuming: () => {
      isConsuming = true;
    },
  };
}
