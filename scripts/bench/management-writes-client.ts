// The client side of the Management writes benchmark: starts the server process and sends it
// item and variant upserts, checking every answer (status and body shape), timing each.
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { treeCpuMs } from './process-cpu.ts';

/** A request: resolves to null when the answer was right, else to what was wrong. */
type Request = (i: number) => Promise<string | null>;

export interface RunResult {
  requests: number;
  errors: number;
  firstError: string | null;
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU milliseconds per request of the server process, of the database's processes and of this client. */
  serverCpuMs: number;
  databaseCpuMs: number;
  clientCpuMs: number;
}

export interface WritesServer {
  upsertItem(externalId: string, name: string): Promise<string | null>;
  upsertVariant(externalId: string, n: number): Promise<string | null>;
  /** `count` requests from `concurrency` clients at once. */
  run(label: string, count: number, concurrency: number, request: Request): Promise<RunResult>;
  /** Creates `count` new items with their variant, printing progress to stderr. */
  seed(count: number, concurrency: number, label: string): Promise<SeedResult>;
  stop(): Promise<void>;
}

/** A seed's items, time, failed answers and CPU milliseconds per item (its two requests). */
export interface SeedResult {
  items: number;
  seconds: number;
  errors: number;
  serverCpuMs: number;
  databaseCpuMs: number;
  clientCpuMs: number;
}

const serverScript = new URL('./management-writes-server.ts', import.meta.url).pathname;

/** User and system CPU of a `process.cpuUsage` difference, in milliseconds. */
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** Starts management-writes-server.ts with `args`; resolves when it listens. */
export async function startWritesServer(args: string[], databasePid: number | null): Promise<WritesServer> {
  const child = spawn(process.execPath, [serverScript, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
  });
  const { url, projectId, key } = JSON.parse(first) as { url: string; projectId: string; key: string };
  const base = `${url}/v2/projects/${projectId}/items/external-id`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  // node:http with kept-alive sockets: the client shares the machine's two cores with the server
  // and the database, and fetch spent about twice its CPU per request (WHATWG streams, undici).
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const send = (path: string, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(
        `${base}/${path}`,
        { method: 'PUT', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  const put = async (path: string, body: unknown, isRight: (json: Record<string, unknown>) => boolean) => {
    try {
      const { status, text } = await send(path, JSON.stringify(body));
      if (status !== 200 && status !== 201) return `${status}: ${text.slice(0, 200)}`;
      const json = JSON.parse(text) as Record<string, unknown>;
      return isRight(json) ? null : `unexpected body: ${text.slice(0, 200)}`;
    } catch (error) {
      return `${(error as Error).message} (${String((error as { code?: unknown }).code ?? '')})`;
    }
  };
  const upsertItem = (externalId: string, name: string) =>
    put(externalId, { name, type: { codename: 'article' } }, (json) => json['name'] === name);
  const upsertVariant = (externalId: string, n: number) => {
    const title = `Title ${n}`;
    return put(
      `${externalId}/variants/codename/default`,
      {
        elements: [
          { element: { codename: 'title' }, value: title },
          { element: { codename: 'rank' }, value: n },
          { element: { codename: 'summary' }, value: `Summary ${n}. `.repeat(4) },
          { element: { codename: 'body' }, value: `<p>Paragraph ${n}: ${'lorem ipsum '.repeat(20)}</p>` },
        ],
      },
      (json) => Array.isArray(json['elements']) && JSON.stringify(json['elements']).includes(`"${title}"`),
    );
  };

  const run = async (_label: string, count: number, concurrency: number, request: Request): Promise<RunResult> => {
    const latencies: number[] = [];
    let errors = 0;
    let firstError: string | null = null;
    let next = 0;
    const serverCpu = treeCpuMs(child.pid ?? 0);
    const databaseCpu = databasePid === null ? 0 : treeCpuMs(databasePid);
    const clientCpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < count; i = next++) {
          const sent = performance.now();
          const error = await request(i);
          latencies.push(performance.now() - sent);
          if (error !== null) {
            errors += 1;
            firstError ??= error;
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      requests: count,
      errors,
      firstError,
      perSecond: count / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      serverCpuMs: (treeCpuMs(child.pid ?? 0) - serverCpu) / count,
      databaseCpuMs: databasePid === null ? 0 : (treeCpuMs(databasePid) - databaseCpu) / count,
      clientCpuMs: cpuMs(process.cpuUsage(clientCpu)) / count,
    };
  };

  const seed = async (count: number, concurrency: number, label: string) => {
    let done = 0;
    let errors = 0;
    const started = performance.now();
    const progress = setInterval(() => {
      const seconds = (performance.now() - started) / 1000;
      const rate = done / seconds;
      console.error(
        `  seeding ${label}: ${done}/${count} items, ${rate.toFixed(0)}/s, ${errors} errors, ` +
          `about ${Math.round((count - done) / Math.max(rate, 1))} s left`,
      );
    }, 10_000);
    let cpu: RunResult;
    try {
      cpu = await run('seed', count, concurrency, async (i) => {
        const id = `seed_${i}`;
        const error = (await upsertItem(id, `Seed ${i}`)) ?? (await upsertVariant(id, i));
        done += 1;
        if (error !== null) errors += 1;
        return error;
      });
    } finally {
      clearInterval(progress);
    }
    // CPU milliseconds per seeded item (its two requests) of the server, the database and the client.
    const { serverCpuMs, databaseCpuMs, clientCpuMs } = cpu;
    return {
      items: count,
      seconds: (performance.now() - started) / 1000,
      errors,
      serverCpuMs,
      databaseCpuMs,
      clientCpuMs,
    };
  };

  return {
    upsertItem,
    upsertVariant,
    run,
    seed,
    async stop() {
      agent.destroy();
      child.kill('SIGTERM');
      await exited;
    },
  };
}
