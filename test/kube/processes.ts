import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { spawnEngine, type EngineProcess } from '../engines/engine-process.ts';

/** A component of the test cluster: a host process logging to `<run>/logs/<name>.log`. */
export function startComponent(run: string, name: string, command: string, args: readonly string[]): EngineProcess {
  return spawnEngine({ command, args, log: join(run, 'logs', `${name}.log`), cwd: run });
}

/** `count` distinct TCP ports free on every address right now. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = createServer();
      return new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '0.0.0.0', () => resolve(server));
      });
    }),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** TLS client credentials for the API server (paths of PEM files). */
export interface ApiClient {
  readonly server: string;
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** GET `path` on the API server with a client certificate: the status and the body. */
export function apiGet(client: ApiClient, path: string, timeoutMs = 5_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, client.server),
      {
        ca: readFileSync(client.ca),
        cert: readFileSync(client.cert),
        key: readFileSync(client.key),
        timeout: timeoutMs,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
