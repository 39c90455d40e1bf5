import type { Server } from 'node:http';
import { loadConfig, wholeNumber, type ConfigOf, type Setting } from '@lectern/config';

/**
 * How every listener treats slow clients and how long a stopping process drains: the same
 * settings for every service main and `lectern start`. Defaults (milliseconds):
 *
 * - grace 10,000: after SIGTERM, in-flight requests have this long; then every socket is closed.
 * - headers 20,000: a request's line and headers must arrive within this (408 otherwise).
 * - idle 60,000: a connection with no byte either way for this long is closed, so a stalled
 *   upload body ends while a slow one (a 100 MiB file on a slow link) goes on: there is no
 *   total request time.
 * - keep-alive 65,000: an idle keep-alive connection is kept this long, longer than the 60 s idle
 *   timeout of common proxies (ingress-nginx, cloud load balancers), which must close first.
 */
/** A duration setting (declared through `Setting`, so the emitted types need no zod here). */
type DurationSetting = Setting<number> & { readonly default: string };

export const serverSettings: {
  readonly shutdownGraceMs: DurationSetting;
  readonly httpHeadersTimeoutMs: DurationSetting;
  readonly httpIdleTimeoutMs: DurationSetting;
  readonly httpKeepAliveTimeoutMs: DurationSetting;
} = {
  shutdownGraceMs: {
    env: 'LECTERN_SHUTDOWN_GRACE_MS',
    schema: wholeNumber({ min: 0, max: 600_000 }),
    default: '10000',
    doc:
      'After SIGTERM: milliseconds in-flight requests may take (readiness fails, idle connections close ' +
      'at once); then the rest are closed and the process exits.',
  },
  httpHeadersTimeoutMs: {
    env: 'LECTERN_HTTP_HEADERS_TIMEOUT_MS',
    schema: wholeNumber({ min: 1000, max: 600_000 }),
    default: '20000',
    doc: 'A request line and headers must arrive within this many milliseconds (else 408).',
  },
  httpIdleTimeoutMs: {
    env: 'LECTERN_HTTP_IDLE_TIMEOUT_MS',
    schema: wholeNumber({ min: 1000, max: 3_600_000 }),
    default: '60000',
    doc:
      'A connection with no byte sent or received for this many milliseconds is closed (a stalled ' +
      'upload); a slow upload that keeps sending is never cut.',
  },
  httpKeepAliveTimeoutMs: {
    env: 'LECTERN_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    schema: wholeNumber({ min: 1000, max: 600_000 }),
    default: '65000',
    doc: 'An idle keep-alive connection is closed after this many milliseconds (keep it above a proxy’s idle timeout).',
  },
};

export type ServerOptions = ConfigOf<typeof serverSettings>;

/** The defaults above, for callers (tests, tools) that listen without a config. */
export const defaultServerOptions: ServerOptions = Object.freeze(loadConfig({ settings: serverSettings, env: {} }));

/** The slice of a loaded config that `listen` needs. */
export function serverOptionsOf(config: ServerOptions): ServerOptions {
  const { shutdownGraceMs, httpHeadersTimeoutMs, httpIdleTimeoutMs, httpKeepAliveTimeoutMs } = config;
  return { shutdownGraceMs, httpHeadersTimeoutMs, httpIdleTimeoutMs, httpKeepAliveTimeoutMs };
}

/**
 * Sets the timeouts on a Node server (Fastify's, Express's or the host router's) before it
 * listens. Node checks the headers timeout on a timer (`connectionsCheckingInterval`, 30 s by
 * default, read when the server starts listening); it runs four times per timeout here so a
 * stalled request is closed close to its deadline.
 */
export function applyServerTimeouts(server: Server, options: ServerOptions): void {
  server.headersTimeout = options.httpHeadersTimeoutMs;
  // No total bound: a large upload on a slow link must finish. The idle timeout ends stalled ones.
  server.requestTimeout = 0;
  server.keepAliveTimeout = options.httpKeepAliveTimeoutMs;
  // Missing from @types/node; a documented option of http.createServer and a property of the server.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    250,
    Math.min(5000, Math.floor(options.httpHeadersTimeoutMs / 4)),
  );
  // Without a 'timeout' listener Node destroys a socket idle this long.
  server.setTimeout(options.httpIdleTimeoutMs);
}
