import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { toDeliveryError } from '@lectern/errors';
import { createFastifyService } from './fastify-service.ts';
import { listen } from './listen.ts';
import { createLogger } from './logger.ts';
import { createProcessMetrics } from './metrics.ts';
import { createReadiness } from './readiness.ts';
import { defaultServerOptions } from './server-settings.ts';

function service() {
  const app = createFastifyService({
    service: 'test',
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    toErrorResponse: toDeliveryError,
  });
  app.get('/slow', async () => {
    await new Promise((r) => setTimeout(r, 300));
    return { done: true };
  });
  return app;
}

/** A raw connection that records what arrives and when it closes. */
async function open(url: string, request: string) {
  const { port } = new URL(url);
  const socket: Socket = connect(Number(port), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.write(request);
  return { closed, received: () => received };
}

describe('listen().close()', () => {
  it('lets an in-flight request finish, closes idle keep-alive connections at once and stalled ones at the grace period', async () => {
    const graceMs = 1500;
    const listening = await listen(service(), {
      host: '127.0.0.1',
      port: 0,
      server: { ...defaultServerOptions, shutdownGraceMs: graceMs },
    });
    const idle = await open(listening.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!idle.received().includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 5));
    const stalled = await open(listening.url, 'POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab');
    const inFlight = fetch(`${listening.url}/slow`);
    await new Promise((r) => setTimeout(r, 50));

    const started = Date.now();
    const closing = listening.close();
    await idle.closed;
    const idleClosedMs = Date.now() - started;
    expect((await inFlight).status).toBe(200);
    await stalled.closed;
    await closing;
    const closedMs = Date.now() - started;
    // Generous bounds: the idle one well before the grace period, everything shortly after it.
    expect(idleClosedMs).toBeLessThan(graceMs / 2);
    expect(closedMs).toBeGreaterThanOrEqual(graceMs - 50);
    expect(closedMs).toBeLessThan(graceMs + 2000);
  });
});
