import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a load run counted (load-worker.ts). `failed` counts non-2xx, resets, timeouts, wrong bodies. */
export interface LoadResult {
  readonly sent: number;
  readonly failed: number;
  /** Failed requests by kind: `status 503`, `ECONNRESET`, `wrong body`, `TIMEOUT`, … */
  readonly failures: Record<string, number>;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface RunningLoad {
  /** Ends the load and resolves with its counts once every in-flight request has ended. */
  stop(): Promise<LoadResult>;
}

const worker = join(dirname(fileURLToPath(import.meta.url)), 'load-worker.ts');

/**
 * Starts a constant GET load on `url` (sent with the Host header `host`, as through an Ingress)
 * from a separate Node process with `concurrency` keep-alive connections. A 2xx answer counts as
 * served only when its body contains `expect`.
 */
export function startLoad(options: { url: string; host: string; expect: string; concurrency: number }): RunningLoad {
  const child = spawn(
    process.execPath,
    [worker, options.url, options.host, options.expect, String(options.concurrency)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      child.stdin.end('stop\n');
      const code = await exited;
      if (code !== 0) throw new Error(`the load generator exited ${code}: ${stderr}`);
      return JSON.parse(stdout.trim()) as LoadResult;
    },
  };
}

/** One line for the report: `sent 12345, failed 0, p50 3.1 ms, p99 12.4 ms over 60 s`. */
export function describeLoad(result: LoadResult): string {
  const kinds = Object.entries(result.failures).map(([k, n]) => `${k}: ${n}`);
  return (
    `sent ${result.sent}, failed ${result.failed}${kinds.length ? ` (${kinds.join(', ')})` : ''}, ` +
    `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms over ${result.seconds} s`
  );
}
