// Cache hit against its ceiling, and the embedded server's memory under that load (issue 35).
// Starts `lectern start` (PGlite, the benchmark's cached seed) in its own process and a bare
// node:http server returning the same bytes, then alternates wrk runs (a separate process) on the
// two, so each ratio compares runs of one moment. Prints one table; asserts nothing.
// Run: node scripts/bench/cache-hit.ts [--items 10000] [--seconds 8] [--connections 16,64] [--rounds 2]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { authorCount } from './delivery-content.ts';
import {
  prepareSeed,
  pssMiB,
  rssMiB as ownRssMiB,
  startLectern,
  timeIndexRebuild,
  waitUntilSettled,
  type Seeded,
  type ServerProcess,
} from './delivery-setup.ts';
import { runLoad, type LoadResult } from './load-generator.ts';

const usage = `Usage: node scripts/bench/cache-hit.ts [options]

Measures a Delivery list answer of 10 items at depth 1 (about 10 KB) served from the response
cache, beside a bare node:http server sending the same bytes, with wrk at each connection count,
alternating the two servers for each round; and the RSS of the embedded server (PGlite) idle and
under that load.

  --items N            items in the project (default 10000; the seed is cached per machine)
  --seconds S          measured seconds per run, after a 2 s warm-up (default 8)
  --connections C[,C]  wrk connections (default 16,64)
  --rounds R           bare/hit pairs per connection count (default 2)
  --profile DIR        run the server with --cpu-prof, writing its profile into DIR
  --env K=V[,K=V]      extra environment for the server (e.g. LECTERN_PGLITE_SHARED_BUFFERS_MB=16)
  --keep               keep the indexed data directory afterwards (its path is printed)
  --data-dir DIR       reuse such a directory (skips the seed copy and the index rebuild)
  --help               this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    items: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16,64' },
    rounds: { type: 'string', default: '2' },
    profile: { type: 'string' },
    env: { type: 'string', default: '' },
    keep: { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const items = Number(args.items);
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
const connectionCounts = args.connections.split(',').map(Number);
if (
  !(Number.isInteger(items) && items >= 200) ||
  !(Number.isInteger(seconds) && seconds >= 1) ||
  !(Number.isInteger(rounds) && rounds >= 1) ||
  !connectionCounts.every((c) => Number.isInteger(c) && c >= 1)
) {
  console.error(`Invalid options.\n\n${usage}`);
  process.exit(2);
}
const extraEnv = Object.fromEntries(
  args.env
    .split(',')
    .filter((kv) => kv.includes('='))
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);

/**
 * The bare ceiling in a session of its own, as `lectern start`'s supervised child runs (detached):
 * with the kernel's autogroup scheduling each session gets an equal CPU share on a busy machine,
 * so both servers compete for the CPU on the same terms.
 */
async function startBare(body: Buffer): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-bench-bare-'));
  writeFileSync(join(dir, 'list.json'), body);
  const script = new URL('./bare-server.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, join(dir, 'list.json'), join(dir, 'list.json')], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return {
    pid: child.pid as number,
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The process and its descendants (`lectern start` serves from a supervised child): pids. */
function treeOf(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i += 1) {
    try {
      const children = readFileSync(`/proc/${out[i]}/task/${out[i]}/children`, 'utf8').trim();
      if (children !== '') out.push(...children.split(/\s+/).map(Number));
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** Resident set size of a process and its descendants, in MiB. */
function rssMiB(pid: number): number {
  return treeOf(pid).reduce((sum, p) => sum + (Number.isNaN(ownRssMiB(p)) ? 0 : ownRssMiB(p)), 0);
}

function sampleRss(pid: number): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 200);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

/** CPU seconds (user + system) used so far by a process and its descendants (/proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of treeOf(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

interface Run {
  readonly result: LoadResult;
  readonly rssMiB: number;
  /** Server CPU per answered request, in microseconds: robust where throughput is not (a shared machine). */
  readonly cpuUsPerRequest: number;
}

async function load(target: ServerProcess, path: string, connections: number): Promise<Run> {
  const spec = { baseUrl: target.url, template: path, count: 0, offset: 0, width: 0, connections };
  await runLoad('wrk', { ...spec, seconds: 2 });
  const rss = sampleRss(target.pid);
  const cpuBefore = cpuSeconds(target.pid);
  const result = await runLoad('wrk', { ...spec, seconds });
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  return { result, rssMiB: rss.stop(), cpuUsPerRequest: (cpu * 1e6) / Math.max(1, result.requests) };
}

async function main() {
  console.log(`== cache hit ÷ bare, ${items} items (PGlite), wrk ${seconds} s per run, ${rounds} round(s)`);
  const reused = args['data-dir'];
  const seed: Seeded =
    reused === undefined
      ? await prepareSeed({ engine: 'pglite', items })
      : { ...(JSON.parse(readFileSync(join(reused, 'bench-seed.json'), 'utf8')) as Seeded), dataDir: reused };
  const closers: (() => Promise<void>)[] = [];
  try {
    if (reused === undefined) await timeIndexRebuild(seed);
    writeFileSync(join(seed.dataDir, 'bench-seed.json'), JSON.stringify(seed));
    const server = await startLectern(seed, {
      LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
      LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '0',
      ...(args.profile === undefined ? {} : { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${args.profile}` }),
      ...extraEnv,
    });
    closers.push(server.stop);
    await waitUntilSettled(server.url, 600);
    await new Promise((r) => setTimeout(r, 1000));
    const rssIdle = rssMiB(server.pid);
    const articles = items - authorCount(items);
    const mid = Math.floor(articles / 2);
    const p = seed.projectId;
    const listPath = `/${p}/items?system.type=article&elements.rank%5Bgte%5D=${mid}&order=elements.rank%5Bdesc%5D&limit=10&depth=1`;
    const first = await fetch(`${server.url}${listPath}`);
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) throw new Error(`GET ${listPath}: ${first.status} ${body.toString()}`);
    const again = await fetch(`${server.url}${listPath}`);
    const againBody = Buffer.from(await again.arrayBuffer());
    if (again.headers.get('x-cache') !== 'HIT' || !againBody.equals(body))
      throw new Error(`the second request was not a cache hit with the same bytes (${again.headers.get('x-cache')})`);
    const bare = await startBare(body);
    closers.push(bare.stop);
    console.log(`  list answer: ${body.length} bytes; server RSS idle ${rssIdle.toFixed(0)} MiB`);

    const rows: string[] = [];
    let peak = 0;
    for (const c of connectionCounts)
      for (let round = 1; round <= rounds; round += 1) {
        const b = await load(bare, '/list', c);
        const h = await load(server, listPath, c);
        peak = Math.max(peak, h.rssMiB);
        const ratio = h.result.requestsPerSecond / b.result.requestsPerSecond;
        const cpuRatio = b.cpuUsPerRequest / h.cpuUsPerRequest;
        const cell = (r: Run) =>
          `${r.result.requestsPerSecond.toFixed(0)} req/s, p50 ${r.result.p50Ms.toFixed(2)} ms, p99 ${r.result.p99Ms.toFixed(2)} ms, ` +
          `${r.cpuUsPerRequest.toFixed(0)} µs CPU/req, ${r.result.errors} errors`;
        rows.push(
          `| ${c} | ${round} | ${cell(b)} | ${cell(h)} | ${ratio.toFixed(2)} | ${cpuRatio.toFixed(2)} | ${h.rssMiB.toFixed(0)} |`,
        );
        console.log(rows.at(-1));
      }
    const check = await fetch(`${server.url}${listPath}`);
    const checkBody = Buffer.from(await check.arrayBuffer());
    console.log(
      `\n| c | round | bare node:http, same bytes | Delivery cache hit | hit ÷ bare, req/s (goal ≥ 0.6) | bare ÷ hit, CPU per request | server RSS under load, MiB |`,
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    console.log(
      `\nServer RSS: idle ${rssIdle.toFixed(0)} MiB, peak under load ${peak.toFixed(0)} MiB (goal ≤ 350), after ${rssMiB(server.pid).toFixed(0)} MiB.` +
        ` Last answer: ${check.headers.get('x-cache')}, ${checkBody.equals(body) ? 'same bytes' : 'DIFFERENT BYTES'}.`,
    );
    const supervisor = server.supervisorPid;
    if (supervisor !== undefined)
      console.log(
        `Supervisor (lectern start's parent process): RSS ${ownRssMiB(supervisor).toFixed(0)} MiB. Both processes now: ` +
          `RSS ${(ownRssMiB(supervisor) + rssMiB(server.pid)).toFixed(0)} MiB, PSS ${(pssMiB(supervisor) + pssMiB(server.pid)).toFixed(0)} MiB ` +
          '(PSS shares the pages both map, such as Node itself, between them).',
      );
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    if (args.keep || reused !== undefined) console.log(`Data directory kept: --data-dir ${seed.dataDir}`);
    else rmSync(seed.dataDir, { recursive: true, force: true });
  }
}

await main();
