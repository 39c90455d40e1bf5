// The tables the Delivery benchmark prints.
import type { Engine, IndexTiming, Seeded } from './delivery-setup.ts';
import type { LoadResult } from './load-generator.ts';

export interface Row {
  readonly name: string;
  readonly connections: number;
  readonly result: LoadResult;
  /** Largest RSS of the answering process during the measured run. */
  readonly rssMiB: number;
  /** x-cache counts (walks) or the x-cache of a sample (fixed URL). */
  readonly cache: string;
}

export interface RunReport {
  readonly engine: Engine;
  readonly items: number;
  readonly articles: number;
  readonly seed: Seeded;
  readonly index: IndexTiming;
  readonly cacheEntries: number;
  readonly rows: readonly Row[];
  readonly feed: { items: number; pages: number; seconds: number; errors: number; rssMiB: number };
  readonly rss: { idle: number; peak: number; after: number };
}

export interface RunHeader {
  readonly loader: string;
  readonly seconds: number;
  readonly warmup: number;
  readonly connections: number;
  readonly node: string;
  readonly cpus: number;
}

export function table(header: readonly string[], lines: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`;
  return [format(header), rule, ...lines.map(format)].join('\n');
}

const find = (report: RunReport, name: string, connections?: number) =>
  report.rows.find((r) => r.name === name && (connections === undefined || r.connections === connections));
const ratio = (a: Row | undefined, b: Row | undefined) =>
  a && b ? (a.result.requestsPerSecond / b.result.requestsPerSecond).toFixed(2) : '-';
const latency = (row: Row | undefined) =>
  row && row.result.requests > 0 ? `${row.result.p50Ms.toFixed(2)} / ${row.result.p99Ms.toFixed(2)} ms` : '-';
/** Indexing alone: the rebuild's wall time less starting the process and opening the store. */
const indexSeconds = (r: RunReport) => Math.max(0.001, r.index.rebuildSeconds - r.index.baselineSeconds);
/** Under half a second the difference is within the noise of starting a process. */
const variantsPerSecond = (r: RunReport) =>
  r.index.rebuildSeconds - r.index.baselineSeconds < 0.5 ? 'too fast to time' : (r.items / indexSeconds(r)).toFixed(0);

export function printRun(report: RunReport, header: RunHeader): void {
  const { seed } = report;
  console.log(
    `\n### Delivery API on ${report.engine}, ${report.items} items (${report.articles} articles)\n` +
      `load: ${header.loader} from its own process, ${header.seconds} s per scenario after ${header.warmup} s warm-up; ` +
      `server: \`lectern start\` in its own process (rate limits off, response cache ${report.cacheEntries} entries); ` +
      `Node ${header.node}, ${header.cpus} CPUs\n` +
      `seed: ${seed.cachedFrom === null ? `created now in ${seed.seedSeconds.toFixed(0)} s (${(report.items / seed.seedSeconds).toFixed(0)} items/s)` : `cached (${seed.cachedFrom}), restored in ${seed.restoreSeconds.toFixed(1)} s`}\n`,
  );
  // A run no answer finished in has no latency to show.
  const ms = (r: Row, v: number) => (r.result.requests === 0 ? 'none' : v.toFixed(2));
  const lines = report.rows.map((r) => [
    r.name,
    String(r.connections),
    r.result.requestsPerSecond.toFixed(0),
    ms(r, r.result.p50Ms),
    ms(r, r.result.p99Ms),
    r.rssMiB.toFixed(0),
    String(r.result.errors),
    String(r.result.answerErrors),
    r.cache,
  ]);
  const f = report.feed;
  lines.push([
    `items-feed, all ${f.pages} pages (${f.items} items)`,
    '1',
    `${(f.items / f.seconds).toFixed(0)} items/s`,
    `${f.seconds.toFixed(2)} s total`,
    '',
    f.rssMiB.toFixed(0),
    String(f.errors),
    '',
    '',
  ]);
  console.log(
    table(
      ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'RSS MiB', 'errors/non-2xx', 'wrong answers', 'x-cache'],
      lines,
    ),
  );
  console.log(
    `\nserver RSS: ${report.rss.idle.toFixed(0)} MiB idle (after start), ${report.rss.peak.toFixed(0)} MiB peak under load, ` +
      `${report.rss.after.toFixed(0)} MiB after the load\n` +
      `index rebuild: ${report.items} variants in ${indexSeconds(report).toFixed(1)} s = ${variantsPerSecond(report)}${variantsPerSecond(report).startsWith('too') ? '' : ' variants/s'} ` +
      `(\`lectern index rebuild\` ${report.index.rebuildSeconds.toFixed(1)} s less ${report.index.baselineSeconds.toFixed(1)} s ` +
      'for process start and store open, timed by `lectern project list`)\n' +
      `cache hit ÷ bare: item ${ratio(find(report, 'one item, cache hit'), find(report, 'bare node:http, item bytes'))}, ` +
      `list ${ratio(find(report, 'list depth 1, cache hit'), find(report, 'bare node:http, list bytes'))}\n` +
      `list cache miss at c=1, p50 / p99: depth 1 ${latency(find(report, 'list depth 1, cache miss', 1))}, ` +
      `depth 2 ${latency(find(report, 'list depth 2, cache miss', 1))}; ` +
      `equality filter ${latency(find(report, 'equality filter, cache miss', 1))}\n` +
      `list depth 1 cache miss, c=8 ÷ c=1 throughput: ${ratio(find(report, 'list depth 1, cache miss', 8), find(report, 'list depth 1, cache miss', 1))}`,
  );
}

/** The ratios issue 11 judges, one line per engine and size. */
export function printSummary(reports: readonly RunReport[]): void {
  if (reports.length === 0) return;
  console.log('\n### Summary\n');
  const lines = reports.map((r) => [
    r.engine,
    String(r.items),
    ratio(find(r, 'one item, cache hit'), find(r, 'bare node:http, item bytes')),
    ratio(find(r, 'list depth 1, cache hit'), find(r, 'bare node:http, list bytes')),
    latency(find(r, 'list depth 1, cache miss', 1)),
    latency(find(r, 'list depth 2, cache miss', 1)),
    ratio(find(r, 'list depth 1, cache miss', 8), find(r, 'list depth 1, cache miss', 1)),
    latency(find(r, 'equality filter, cache miss', 1)),
    r.rss.peak.toFixed(0),
    variantsPerSecond(r),
  ]);
  console.log(
    table(
      [
        'engine',
        'items',
        'item hit ÷ bare',
        'list hit ÷ bare',
        'list miss c=1 d1 p50/p99',
        'd2 p50/p99',
        'd1 c=8 ÷ c=1',
        'equality c=1 p50/p99',
        'peak RSS MiB',
        'index variants/s',
      ],
      lines,
    ),
  );
}
