// The keep-alive contract a client relies on to never meet a reset (issue 35): an idle
// connection stays open for at least the `Keep-Alive: timeout=N` the server advertises, whatever
// the (shorter) idle timeout of a request in progress. Timeouts are scaled down from the
// defaults (idle 60 s, keep-alive 65 s) keeping their order.
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { toDeliveryError } from '@lectern/errors';
import { createFastifyService } from './fastify-service.ts';
import { listen } from './listen.ts';
import { createLogger } from './logger.ts';
import { createProcessMetrics } from './metrics.ts';
import { createReadiness } from './readiness.ts';
import { defaultServerOptions } from './server-settings.ts';

const settings = { ...defaultServerOptions, httpIdleTimeoutMs: 1000, httpKeepAliveTimeoutMs: 2000 };

/**
 * One connection: a request, then an idle wait of `idleMs`, then a second request. Resolves with
 * the advertised keep-alive, whether the second request was answered, and how the socket ended.
 */
async function reuseAfter(url: string, idleMs: number) {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  let received = '';
  let error: string | null = null;
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
  socket.write(request);
  while (!received.includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 5));
  const advertised = /keep-alive: timeout=(\d+)/i.exec(received)?.[1];
  await new Promise((r) => setTimeout(r, idleMs));
  const isOpen = !socket.destroyed && socket.readyState === 'open';
  if (isOpen) socket.write(request);
  const deadline = Date.now() + 2000;
  while ((received.match(/HTTP\/1\.1 200/g) ?? []).length < 2 && Date.now() < deadline && !socket.destroyed)
    await new Promise((r) => setTimeout(r, 5));
  const answers = (received.match(/HTTP\/1\.1 200/g) ?? []).length;
  socket.destroy();
  await closed;
  return { advertised: Number(advertised), answers, error, isOpen };
}

describe('keep-alive edge', () => {
  it(
    'keeps an idle Fastify connection past its idle timeout, up to the advertised keep-alive',
    { timeout: 20_000 },
    async () => {
      const app = createFastifyService({
        service: 'test',
        metrics: createProcessMetrics(),
        readiness: createReadiness([]),
        logger: createLogger({ level: 'silent' }),
        toErrorResponse: toDeliveryError,
      });
      const listening = await listen(app, { host: '127.0.0.1', port: 0, server: settings, graceMs: 50 });
      try {
        // Idle longer than the idle timeout, just short of the advertised keep-alive.
        const reused = await reuseAfter(listening.url, 1900);
        expect(reused).toEqual({ advertised: 2, answers: 2, error: null, isOpen: true });
      } finally {
        await listening.close();
      }
    },
  );

  it('does the same for a plain Node server (Management, the host router)', { timeout: 20_000 }, async () => {
    const server = createServer((_req, res) => res.end('ok'));
    const listening = await listen(server, { host: '127.0.0.1', port: 0, server: settings, graceMs: 50 });
    try {
      const reused = await reuseAfter(`${listening.url}/healthz`, 1900);
      expect(reused).toEqual({ advertised: 2, answers: 2, error: null, isOpen: true });
    } finally {
      await listening.close();
    }
  });
});
