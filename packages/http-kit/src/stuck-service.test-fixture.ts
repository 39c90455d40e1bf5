import { sharedSettings } from '@lectern/config';
import { toDeliveryError } from '@lectern/errors';
import { createFastifyService } from './fastify-service.ts';
import { createProcessMetrics } from './metrics.ts';
import { listenStep } from './probe-listener.ts';
import { createReadiness } from './readiness.ts';
import { runServiceMain } from './service-main.ts';

/**
 * Test fixture (supervisor.test.ts), never deployed: a supervised service main whose
 * `GET /block` holds the event loop for ever, as a runaway parser would. Prints one JSON line
 * with its URL and the server process's pid once listening.
 */
await runServiceMain({
  name: 'stuck-fixture',
  summary: 'a test service with a route that blocks its event loop for ever',
  settings: { logLevel: sharedSettings.logLevel, host: sharedSettings.host },
  isSupervised: true,
  async start(config, service) {
    const readiness = createReadiness([]);
    const app = createFastifyService({
      service: 'stuck-fixture',
      metrics: createProcessMetrics(),
      readiness,
      logger: service.logger,
      toErrorResponse: toDeliveryError,
    });
    app.get('/block', async () => {
      for (;;) {
        // never yields
      }
    });
    const listening = await listenStep(service, app, { host: config.host, port: 0, portEnv: 'none' });
    service.onStop(async () => {
      readiness.drain();
      await listening.close();
    });
    process.stdout.write(`${JSON.stringify({ url: listening.url, pid: process.pid })}\n`);
  },
});
