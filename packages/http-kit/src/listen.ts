import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface Listening {
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and resolves once in-flight requests finished (or the grace period ended). */
  close(): Promise<void>;
}

/** Listens a Fastify app or a plain Node server (Express) on host:port; port 0 picks a free one. */
export async function listen(
  target: FastifyInstance | Server,
  options: { host: string; port: number; graceMs?: number },
): Promise<Listening> {
  const graceMs = options.graceMs ?? 10_000;
  if ('server' in target) {
    await target.listen({ host: options.host, port: options.port });
    const port = (target.server.address() as AddressInfo).port;
    return {
      url: `http://${options.host}:${port}`,
      port,
      close: () => withGrace(target.close(), target.server, graceMs),
    };
  }
  await new Promise<void>((resolve, reject) => {
    target.once('error', reject);
    target.listen(options.port, options.host, () => {
      target.off('error', reject);
      resolve();
    });
  });
  const port = (target.address() as AddressInfo).port;
  return { url: `http://${options.host}:${port}`, port, close: () => closeGracefully(target, graceMs) };
}

/** Closes a Node server: idle keep-alive sockets at once, busy ones after the grace period. */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  return withGrace(closed, server, graceMs);
}

async function withGrace(closing: Promise<unknown>, server: Server, graceMs: number): Promise<void> {
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closing;
  } finally {
    clearTimeout(timer);
  }
}
