import { Agent, request } from 'node:http';

/** What one closed-loop run measured. */
export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Largest resident set size of this process seen during the run, in MiB. */
  readonly rssMiB: number;
}

export interface LoadOptions {
  readonly baseUrl: string;
  /** The path (with query) of request number `n`; the same path every time for a cached URL. */
  readonly pathOf: (n: number) => string;
  readonly connections: number;
  readonly seconds: number;
  /** Unmeasured run first, so caches, JIT and sockets are warm (seconds). */
  readonly warmupSeconds: number;
  readonly headers?: Readonly<Record<string, string>>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/** One GET over a keep-alive agent; resolves with the status once the body is fully read. */
function get(agent: Agent, url: URL, path: string, headers: Readonly<Record<string, string>>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path, method: 'GET', headers: { ...headers } },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function run(options: LoadOptions, seconds: number, isMeasured: boolean) {
  const url = new URL(options.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let errors = 0;
  let next = 0;
  let rss = process.memoryUsage.rss();
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const path = options.pathOf(next++);
      const started = performance.now();
      try {
        const status = await get(agent, url, path, options.headers ?? {});
        if (status !== 200) errors += 1;
      } catch {
        errors += 1;
      }
      if (!isMeasured) continue;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = performance.now() - started;
      if ((count & 1023) === 0) rss = Math.max(rss, process.memoryUsage.rss());
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsed = (performance.now() - startedAt) / 1000;
  agent.destroy();
  rss = Math.max(rss, process.memoryUsage.rss());
  const sorted = latencies.slice(0, count).sort();
  return {
    requests: count,
    errors,
    seconds: elapsed,
    requestsPerSecond: count / elapsed,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    rssMiB: rss / (1024 * 1024),
  };
}

/**
 * A closed-loop load generator: `connections` workers over one keep-alive agent, each sending its
 * next request as soon as the previous answer is fully read, for a fixed duration. Latency is
 * measured per request from send to last byte; anything but 200 counts as an error.
 */
export async function driveLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await run(options, options.warmupSeconds, false);
  return run(options, options.seconds, true);
}
