import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { applyServerTimeouts, defaultServerOptions, type ServerOptions } from './server-settings.ts';

export interface Listening {
  readonly url: string;
  readonly port: number;
  /**
   * Stops accepting connections and closes idle ones at once (and each one that turns idle
   * while draining); resolves once in-flight requests finished or, at the latest, when the grace
   * period ends: then every remaining connection is destroyed.
   */
  close(): Promise<void>;
}

/**
 * Listens a Fastify app or a plain Node server (Express, the host router) on host:port; port 0
 * picks a free one. The server's slow-client timeouts and the grace period of `close()` come
 * from `server` (the settings of `serverSettings`; their defaults when omitted).
 */
export async function listen(
  target: FastifyInstance | Server,
  options: {
    host: string;
    port: number;
    server?: ServerOptions;
    /** Overrides `server.shutdownGraceMs` (test stacks that stop at once). */
    graceMs?: number;
  },
): Promise<Listening> {
  const settings = options.server ?? defaultServerOptions;
  const server = 'server' in target ? target.server : target;
  applyServerTimeouts(server, settings);
  if ('server' in target) {
    await target.listen({ host: options.host, port: options.port });
  } else {
    await new Promise<void>((resolve, reject) => {
      target.once('error', reject);
      target.listen(options.port, options.host, () => {
        target.off('error', reject);
        resolve();
      });
    });
  }
  const port = (server.address() as AddressInfo).port;
  const graceMs = options.graceMs ?? settings.shutdownGraceMs;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${options.host}:${port}`,
    port,
    close() {
      // Fastify's close runs its hooks and closes the same Node server.
      closing ??= drain(server, 'server' in target ? target.close() : null, graceMs);
      return closing;
    },
  };
}

/** Closes a Node server: idle keep-alive sockets at once, busy ones after the grace period. */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return drain(server, null, graceMs);
}

/** How often idle connections are closed while draining: a response finished during the drain leaves its socket idle. */
const idleSweepMs = 100;

/** Closes `server` (through `frameworkClose` when a framework owns it), bounded by the grace period. */
async function drain(server: Server, frameworkClose: Promise<unknown> | null, graceMs: number): Promise<void> {
  const closed =
    frameworkClose ??
    new Promise<void>((resolve) => {
      if (!server.listening) resolve();
      else server.close(() => resolve());
    });
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), idleSweepMs);
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}
