import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { toDeliveryError } from '@lectern/errors';
import { createFastifyService } from './fastify-service.ts';
import { createLiveness, type Liveness } from './liveness.ts';
import { createLogger } from './logger.ts';
import { createProcessMetrics } from './metrics.ts';
import { createReadiness } from './readiness.ts';

let liveness: Liveness | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  liveness?.stop();
  await app?.close();
});

function service(options: { maxDelayMs: number }): FastifyInstance {
  liveness = createLiveness({ maxDelayMs: options.maxDelayMs, windowMs: 60_000 });
  app = createFastifyService({
    service: 'test',
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    toErrorResponse: toDeliveryError,
    liveness,
  });
  return app;
}

/** Holds the event loop, as a runaway request would. */
function blockLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** Lets the loop turn a few times so the delay monitor records what happened. */
const settle = () => new Promise((r) => setTimeout(r, 100));

describe('/healthz reports the event loop', () => {
  it('answers 200 with the worst delay while the loop keeps up', async () => {
    const app = service({ maxDelayMs: 1000 });
    await settle();
    const response = await app.inject('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', max_event_loop_delay_ms: expect.any(Number) });
  });

  it('answers 503 with the figure after the loop was blocked longer than the limit', async () => {
    const app = service({ maxDelayMs: 200 });
    await settle();
    blockLoop(600);
    await settle();
    const response = await app.inject('/healthz');
    expect(response.statusCode).toBe(503);
    const body = response.json<{ status: string; max_event_loop_delay_ms: number }>();
    expect(body.status).toBe('event loop blocked');
    expect(body.max_event_loop_delay_ms).toBeGreaterThanOrEqual(500);
  });

  it('forgets a stall before reset (the start of a process)', async () => {
    const app = service({ maxDelayMs: 200 });
    await settle();
    blockLoop(600);
    await settle();
    liveness?.reset();
    await settle();
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });
});
