// The tables of the search-index benchmark: per item count, one row per measure and one column per
// index, as Markdown (docs/search-index.md quotes them).
import type { Measured } from './search-index-measure.ts';
import type { IndexKind, Prepared } from './search-index-stack.ts';

export interface RunReport {
  readonly items: number;
  readonly index: IndexKind;
  readonly prepared: Prepared;
  readonly measured: Measured;
  /** Delivery's RSS once started and settled, and after every scenario (MiB). */
  readonly deliveryIdleMiB: number;
  readonly searchIdleMiB: number;
}

export const indexLabel: Record<IndexKind, string> = {
  sql: 'SQL index (PostgreSQL)',
  opensearch: 'search index (OpenSearch)',
};

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const mib = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(0));

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** The measures of one run as the cells of its column, in the order of `rowNames`. */
function cells(r: RunReport): string[] {
  const m = r.measured;
  const load = m.rows.map(
    (row) =>
      `${row.result.requestsPerSecond.toFixed(0)} req/s · ${ms(row.result.p50Ms)} / ${ms(row.result.p99Ms)}` +
      (row.result.errors + row.result.answerErrors > 0
        ? ` · ${row.result.errors + row.result.answerErrors} errors`
        : ''),
  );
  const f = m.feed;
  const indexing = Math.max(0, r.prepared.rebuild.seconds - r.prepared.rebuild.baselineSeconds);
  return [
    `${indexing.toFixed(1)} s (${(r.items / Math.max(indexing, 0.001)).toFixed(0)} items/s)`,
    ...load,
    `${f.seconds.toFixed(1)} s · ${(f.items / f.seconds).toFixed(0)} items/s` + (f.errors > 0 ? ' · ERROR' : ''),
    `${ms(f.pageP50Ms)} / ${ms(f.pageP99Ms)}`,
    `${ms(m.publish.p50Ms)} / ${ms(m.publish.p99Ms)} (max ${ms(m.publish.maxMs)})`,
    `${ms(m.publishWaited.p50Ms)} / ${ms(m.publishWaited.p99Ms)} (max ${ms(m.publishWaited.maxMs)})`,
    `${mib(r.deliveryIdleMiB)} / ${mib(Math.max(...m.rows.map((x) => x.deliveryRssMiB), f.deliveryRssMiB))}`,
    r.index === 'sql' ? 'not used' : `${mib(r.searchIdleMiB)} / ${mib(Math.max(...m.rows.map((x) => x.searchRssMiB)))}`,
    m.rows.map((x) => `${x.result.misses ?? '?'}/${x.result.requests}`).join(', '),
    m.rows.map((x) => `${x.result.errors}+${x.result.answerErrors}`).join(', '),
  ];
}

function rowNames(r: RunReport): string[] {
  return [
    'e. `lectern index rebuild` (less process start)',
    ...r.measured.rows.map(
      (row) => `${row.name === r.measured.rows[0]?.name ? 'a' : 'b'}. ${row.name}, c=${row.connections}`,
    ),
    `c. items-feed, all ${r.measured.feed.pages} pages (${r.measured.feed.items} items), c=1`,
    'c. items-feed, one page p50 / p99 ms',
    `d. publish → visible p50 / p99 ms (${r.measured.publish.publishes} publishes), Delivery polled`,
    `d. the same (${r.measured.publishWaited.publishes} other articles), one request with the wait header`,
    'Delivery RSS MiB, idle / peak',
    'OpenSearch RSS MiB, idle / peak (512 MiB heap)',
    'x-cache MISS / requests sent (a, a, b, b)',
    'answer errors: failed or non-2xx + wrong bodies (a, a, b, b)',
  ];
}

/** One table per item count, its index runs as columns. */
export function printSize(items: number, runs: readonly RunReport[]): void {
  const first = runs[0];
  if (first === undefined) return;
  const columns = runs.map((r) => cells(r));
  const names = rowNames(first);
  console.log(`\n### ${items.toLocaleString('en')} items\n`);
  console.log('Load rows: throughput · p50 / p99 ms per request.\n');
  console.log(
    table(
      ['measure', ...runs.map((r) => indexLabel[r.index])],
      names.map((name, i) => [name, ...columns.map((c) => c[i] ?? '–')]),
    ),
  );
  for (const r of runs)
    console.log(
      `${indexLabel[r.index]}: seed ${r.prepared.seed.cachedFrom === null ? `made now in ${r.prepared.seed.seedSeconds.toFixed(0)} s` : `restored from the cache in ${r.prepared.seed.restoreSeconds.toFixed(1)} s`}; ` +
        `rebuild ${r.prepared.rebuild.seconds.toFixed(1)} s wall, process start and store open ${r.prepared.rebuild.baselineSeconds.toFixed(1)} s`,
    );
}
