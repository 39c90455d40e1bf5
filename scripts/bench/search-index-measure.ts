// The scenarios of the search-index benchmark against one running stack (search-index-stack.ts),
// every one driven from a process other than the services: wrk (or autocannon) for the list and
// the equality filter, feed-client.ts for the items feed, this process for publish → visible
// (Management API calls, then polling Delivery).
import { execFile as execFileCb } from 'node:child_process';
import { promisify } from 'node:util';
import { articleCodename } from './delivery-content.ts';
import { sampleRss } from './delivery-setup.ts';
import { runLoad, type LoaderName, type LoadResult } from './load-generator.ts';
import type { Stack } from './search-index-stack.ts';

const execFile = promisify(execFileCb);

export interface LoadRow {
  readonly name: string;
  readonly connections: number;
  readonly result: LoadResult;
  /** Peak RSS of the Delivery process, and of the search engine, during the run (MiB). */
  readonly deliveryRssMiB: number;
  readonly searchRssMiB: number;
}

export interface FeedRun {
  readonly items: number;
  readonly pages: number;
  readonly seconds: number;
  readonly errors: number;
  readonly pageP50Ms: number;
  readonly pageP99Ms: number;
  readonly deliveryRssMiB: number;
}

export interface PublishRun {
  readonly publishes: number;
  /** Management's publish answer → Delivery answers the new title, in ms. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export interface Measured {
  readonly rows: readonly LoadRow[];
  readonly feed: FeedRun;
  /** Seen by polling Delivery every `pollMs`. */
  readonly publish: PublishRun;
  /** Seen by one Delivery request with `X-KC-Wait-For-Loading-New-Content: true` per publish. */
  readonly publishWaited: PublishRun;
}

export interface MeasureOptions {
  readonly stack: Stack;
  readonly projectId: string;
  readonly articles: number;
  readonly loader: LoaderName;
  readonly seconds: number;
  readonly warmup: number;
  readonly connections: number;
  readonly publishes: number;
  readonly pollMs: number;
  /** The search engine process (its RSS is reported beside Delivery's). */
  readonly searchPid: number | undefined;
}

/**
 * The list's answer (wrk's Lua): the ranks n − 1 … n − 10 in that order, n read back from the
 * answer's `pagination.next_page` (it repeats the request's filter), each item linked to an author
 * that `modular_content` holds (depth ≥ 1). The last page (n ≤ 10, no next page) must end at rank 0.
 * `"modular_content":{` is the top-level key; `"modular_content"` alone also names element types.
 */
export const listCheck = `
local cut = body:find('"modular_content":{', 1, true)
if cut == nil then return false end
local items = body:sub(1, cut)
local n = tonumber(body:match('rank%%5Blt%%5D=(%d+)', cut) or '')
if n == nil and body:find('"next_page":""', cut, true) == nil then return false end
local expected, count = n and n - 1, 0
for v in items:gmatch('"rank":{[^}]-"value":(%d+)') do
  v = tonumber(v)
  if expected ~= nil and v ~= expected then return false end
  expected, count = v - 1, count + 1
end
if count ~= 10 and not (n == nil and expected == -1 and count > 0) then return false end
return body:find('"author_', cut, true) ~= nil`;

/** The equality filter's answer: exactly one item, whose title names its own codename's number. */
export const equalityCheck = `
local cut = body:find('"modular_content":{', 1, true) or #body
local items = body:sub(1, cut)
local codename, extra = nil, 0
for c in items:gmatch('"codename":"article_(%d+)"') do
  if codename == nil then codename = tonumber(c) else extra = extra + 1 end
end
local title = items:match('"title":{[^}]-"value":"Article (%d+)"')
return codename ~= nil and extra == 0 and title ~= nil and tonumber(title) == codename`;

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

/** The list of 10 (a), the equality filter (b), the feed (c), publish → visible (d), in that order. */
export async function measureStack(o: MeasureOptions): Promise<Measured> {
  const p = o.projectId;
  const rows: LoadRow[] = [];
  const scenarios = [
    {
      // rank = article number: ranks n-1 … n-10, a different page (and different linked items) each
      // request, as a visitor paging through the archive; the rows are not the same top 10 each time.
      name: 'list of 10, rank < n, by rank desc, depth 2',
      template: `/${p}/items?system.type=article&elements.rank%5Blt%5D={n}&order=elements.rank%5Bdesc%5D&limit=10&depth=2`,
      check: listCheck,
      // n from 1 to the article count: n = 0 would ask for no article, a right but empty answer
      // that the check (which reads n back from the answer) counts as wrong.
      start: 1,
    },
    {
      name: 'equality elements.title = "Article n" (a unique value, as a slug), depth 0',
      template: `/${p}/items?elements.title=Article%20{n}&depth=0`,
      check: equalityCheck,
    },
  ];
  for (const scenario of scenarios)
    for (const connections of [1, o.connections]) {
      process.stdout.write(`    ${scenario.name}, c=${connections} …`);
      // Each walk starts where no other run of the same template started, from the middle.
      const spec = {
        template: scenario.template,
        check: scenario.check,
        count: o.articles,
        width: 0,
        connections,
        ...('start' in scenario ? { start: scenario.start } : {}),
      };
      const offset = Math.floor(o.articles / 2) + connections * 7919;
      const warm = await runLoad(o.loader, { ...spec, baseUrl: o.stack.deliveryUrl, seconds: o.warmup, offset });
      const delivery = sampleRss(o.stack.deliveryPid);
      const search = o.searchPid === undefined ? null : sampleRss(o.searchPid);
      const result = await runLoad(o.loader, {
        ...spec,
        baseUrl: o.stack.deliveryUrl,
        seconds: o.seconds,
        offset: warm.nextOffset,
      });
      rows.push({
        name: scenario.name,
        connections,
        result,
        deliveryRssMiB: delivery.stop(),
        searchRssMiB: search?.stop() ?? Number.NaN,
      });
      process.stdout.write(` ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms\n`);
    }

  process.stdout.write('    items-feed, every page …');
  const rss = sampleRss(o.stack.deliveryPid);
  const { stdout } = await execFile(process.execPath, [
    new URL('./feed-client.ts', import.meta.url).pathname,
    o.stack.deliveryUrl,
    p,
  ]);
  const feed = { ...(JSON.parse(stdout) as Omit<FeedRun, 'deliveryRssMiB'>), deliveryRssMiB: rss.stop() };
  process.stdout.write(` ${feed.items} items in ${feed.seconds.toFixed(1)} s\n`);

  const key = await call(
    `${o.stack.cluster.managementUrl}/admin/projects/${o.projectId}/keys`,
    o.stack.operatorToken,
    'POST',
    { kind: 'management', user_email: 'bench@example.com' },
  );
  const publish = await measurePublishes(o, String(key['api_key']), 'poll', 0);
  const publishWaited = await measurePublishes(o, String(key['api_key']), 'wait', o.publishes);
  return { rows, feed, publish, publishWaited };
}

/** One Management API call with a management key; a non-2xx answer is an error. */
async function call(url: string, token: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/**
 * (d): for `publishes` articles from `first`, one after another: a new version and a new title
 * through the Management API, then publish; the time from the publish answer until Delivery
 * answers the new title. The path is the cluster's: outbox relay → Kafka → indexer → index →
 * watermark. `poll`: Delivery asked every `pollMs` (each request a search while the indexer
 * writes: on two cores the polling itself slows the engine down); `wait`: one request with
 * `X-KC-Wait-For-Loading-New-Content: true`, which Delivery answers once its watermark covers the
 * publish (polling continues should it not show the new title).
 */
async function measurePublishes(
  o: MeasureOptions,
  managementKey: string,
  mode: 'poll' | 'wait',
  first: number,
): Promise<PublishRun> {
  const mapi = (path: string, method: string, body?: unknown) =>
    call(`${o.stack.cluster.managementUrl}/v2/projects/${o.projectId}${path}`, managementKey, method, body);
  const times: number[] = [];
  for (let i = first; i < first + o.publishes; i++) {
    const codename = articleCodename(i);
    const variant = `/items/codename/${codename}/variants/codename/default`;
    const title = `Edited ${i} at ${Date.now()}`;
    await mapi(`${variant}/new-version`, 'PUT');
    await mapi(variant, 'PUT', { elements: [{ element: { codename: 'title' }, value: title }] });
    await mapi(`${variant}/publish`, 'PUT');
    const published = performance.now();
    for (let attempt = 0; ; attempt++) {
      const isWaiting = mode === 'wait' && attempt === 0;
      const response = await fetch(`${o.stack.deliveryUrl}/${o.projectId}/items/${codename}?depth=0`, {
        headers: isWaiting ? { 'x-kc-wait-for-loading-new-content': 'true' } : {},
      });
      const body = (await response.json()) as { item?: { elements?: { title?: { value?: string } } } };
      if (response.status === 200 && body.item?.elements?.title?.value === title) break;
      if (performance.now() - published > 60_000) throw new Error(`${codename} was not visible after 60 s`);
      if (o.pollMs > 0) await new Promise((r) => setTimeout(r, o.pollMs));
    }
    times.push(performance.now() - published);
    const done = i + 1 - first;
    const label = `    publish → visible (${mode}): ${done}/${o.publishes}`;
    if (process.stdout.isTTY) process.stdout.write(`\r${label}`);
    else if (done % 10 === 0 || done === o.publishes) console.log(label);
  }
  if (process.stdout.isTTY) process.stdout.write('\n');
  return {
    publishes: times.length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: Math.max(...times),
  };
}
