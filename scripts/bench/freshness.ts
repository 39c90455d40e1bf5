// Index freshness benchmark: how long after a publish through the Management API the item is
// visible in Delivery. Starts the chosen shape as separate processes, creates a project, then
// publishes N new items one after another and polls every Delivery process until each shows up.
// Run: node scripts/bench/freshness.ts [--shape embedded|cluster|both] [--publishes 200]
// Prints a table; it asserts nothing (CONVENTIONS: benchmarks are scripts that print tables).
import { parseArgs } from 'node:util';
import { startTarget, type Shape, type Target } from './targets.ts';

const usage = `Usage: node scripts/bench/freshness.ts [options]

Measures publish → visible-in-Delivery latency: for each of --publishes new items, the time from
the Management API's answer to "publish" until GET /{project}/items/{codename} answers 200 with
the new value on every Delivery process (polled every --poll-ms, without the wait header). The
Management rate limits (400 requests a minute) are honoured, so a run takes a few minutes.

  --shape S        embedded (one process, PGlite), cluster (management, indexer and two delivery
                   processes on PostgreSQL, Kafka and MinIO), or both (default both)
  --publishes N    publishes to measure (default 200)
  --poll-ms M      Delivery poll interval (default 2)
  --help           this text`;

const { values: args } = parseArgs({
  options: {
    shape: { type: 'string', default: 'both' },
    publishes: { type: 'string', default: '200' },
    'poll-ms': { type: 'string', default: '2' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const publishes = Number(args.publishes);
const pollMs = Number(args['poll-ms']);
const shapes: Shape[] = args.shape === 'both' ? ['embedded', 'cluster'] : [args.shape as Shape];
if (!(publishes > 0 && pollMs >= 0) || !shapes.every((s) => s === 'embedded' || s === 'cluster')) {
  console.error(`Invalid options.\n\n${usage}`);
  process.exit(2);
}

/** One Management call; waits out the API's rate limit (429 + Retry-After) like a client should. */
async function call(url: string, token: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 429) {
    await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? '1') * 1000));
    return call(url, token, method, body);
  }
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** A project with a management key and a one-element type. */
async function setUp(target: Target) {
  const admin = `${target.managementUrl}/admin`;
  const project = await call(`${admin}/projects`, target.operatorToken, 'POST', { name: 'Freshness benchmark' });
  const projectId = String(project['id']);
  const key = await call(`${admin}/projects/${projectId}/keys`, target.operatorToken, 'POST', {
    kind: 'management',
    user_email: 'bench@example.com',
  });
  const mapi = (path: string, method: string, body?: unknown) =>
    call(`${target.managementUrl}/v2/projects/${projectId}${path}`, String(key['api_key']), method, body);
  await mapi('/types', 'POST', {
    name: 'Note',
    codename: 'note',
    elements: [{ name: 'Title', codename: 'title', type: 'text' }],
  });
  return { projectId, mapi };
}

/** Polls one Delivery process until the item answers with `title`; resolves with the time seen. */
async function visibleAt(baseUrl: string, projectId: string, codename: string, title: string): Promise<number> {
  for (;;) {
    const response = await fetch(`${baseUrl}/${projectId}/items/${codename}`);
    const body = (await response.json()) as { item?: { elements?: { title?: { value?: string } } } };
    if (response.status === 200 && body.item?.elements?.title?.value === title) return performance.now();
    if (pollMs > 0) await new Promise((r) => setTimeout(r, pollMs));
  }
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

async function measure(shape: Shape) {
  process.stderr.write(`${shape}: starting…\n`);
  const target = await startTarget(shape);
  try {
    const { projectId, mapi } = await setUp(target);
    const latencies: number[] = [];
    const publishCalls: number[] = [];
    for (let i = 0; i < publishes; i++) {
      const codename = `note_${i}`;
      const title = `Note ${i}`;
      await mapi('/items', 'POST', { name: title, codename, type: { codename: 'note' } });
      await mapi(`/items/codename/${codename}/variants/codename/default`, 'PUT', {
        elements: [{ element: { codename: 'title' }, value: title }],
      });
      const before = performance.now();
      await mapi(`/items/codename/${codename}/variants/codename/default/publish`, 'PUT');
      const published = performance.now();
      const seen = await Promise.all(target.deliveryUrls.map((url) => visibleAt(url, projectId, codename, title)));
      latencies.push(Math.max(...seen) - published);
      publishCalls.push(published - before);
      process.stderr.write(`\r${shape}: ${i + 1}/${publishes} publishes`);
    }
    process.stderr.write('\n');
    const sorted = [...latencies].sort((a, b) => a - b);
    const calls = [...publishCalls].sort((a, b) => a - b);
    return {
      shape,
      deliveries: target.deliveryUrls.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      publishP50: percentile(calls, 50),
    };
  } finally {
    await target.stop();
  }
}

const rows = [];
for (const shape of shapes) rows.push(await measure(shape));
const ms = (n: number) => n.toFixed(1).padStart(9);
console.log(`\npublish → visible in Delivery, ${publishes} publishes, poll every ${pollMs} ms\n`);
console.log('shape      delivery procs   p50 ms    p99 ms    max ms   publish call p50 ms');
for (const r of rows)
  console.log(
    `${r.shape.padEnd(10)} ${String(r.deliveries).padStart(14)} ${ms(r.p50)} ${ms(r.p99)} ${ms(r.max)} ${ms(r.publishP50)}`,
  );
