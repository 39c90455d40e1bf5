// A constant HTTP load, run as its own process (test/kube/load.ts starts it) so that the test's
// event loop and the load never slow each other. It sends GETs to one URL with a given Host
// header from `concurrency` loops, each with its own keep-alive connection, until "stop" arrives
// on stdin; then it prints one JSON line (LoadResult) on stdout and exits.
//
// A request counts as failed when it ends in anything but a 2xx status whose body contains the
// expected text: a 5xx or 4xx, a connection reset or refusal, a timeout (10 s), a wrong body.
//
// Usage: node load-worker.ts <url> <host header> <expected body text> <concurrency>

import { Agent, request } from 'node:http';

const [url, host, expected, concurrencyText] = process.argv.slice(2);
if (!url || !host || expected === undefined || !concurrencyText) {
  console.error('usage: node load-worker.ts <url> <host header> <expected body text> <concurrency>');
  process.exit(2);
}
const concurrency = Number(concurrencyText);
const target = new URL(url);
const latencies: number[] = [];
const failures: Record<string, number> = {};
let sent = 0;
let stopping = false;

function fail(kind: string): void {
  failures[kind] = (failures[kind] ?? 0) + 1;
}

/** One GET; resolves when it has ended either way. */
function once(agent: Agent): Promise<void> {
  sent += 1;
  const began = performance.now();
  return new Promise((resolve) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers: { host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          latencies.push(performance.now() - began);
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 299) fail(`status ${status}`);
          else if (!Buffer.concat(chunks).toString('utf8').includes(expected!)) fail('wrong body');
          resolve();
        });
        res.on('error', (error: NodeJS.ErrnoException) => {
          fail(error.code ?? error.message);
          resolve();
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => {
      fail(error.code ?? error.message);
      resolve();
    });
    req.end();
  });
}

async function loop(): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  while (!stopping) await once(agent);
  agent.destroy();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const began = performance.now();
const loops = Array.from({ length: concurrency }, loop);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  if (text.includes('stop')) stopping = true;
});
await Promise.all(loops);
const sorted = latencies.sort((a, b) => a - b);
const failed = Object.values(failures).reduce((a, b) => a + b, 0);
process.stdout.write(
  JSON.stringify({
    sent,
    failed,
    failures,
    seconds: Math.round((performance.now() - began) / 100) / 10,
    p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
  }) + '\n',
);
process.exit(0);
