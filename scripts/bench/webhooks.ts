// Webhook benchmark: publish → first delivery attempt latency, and notifications per second to a
// fast receiver. Starts the chosen shape as separate processes (with the webhook worker), a
// receiver on loopback in this process, registers a webhook through the Management API, then
// measures. Run: node scripts/bench/webhooks.ts [--shape embedded|cluster|both] [--publishes 100]
// [--notifications 1000]. Prints tables; it asserts nothing (CONVENTIONS: benchmarks print tables).
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { startTarget, type Shape, type Target } from './targets.ts';

const usage = `Usage: node scripts/bench/webhooks.ts [options]

Measures (1) publish → first delivery attempt: for each of --publishes new items, the time from
sending the Management API's "publish" request until the receiver gets the notification naming
the item, one publish after another; (2) throughput: with the receiver down (503), --notifications
taxonomy groups are created (8 requests in flight) and queue behind the failed first one; then the
receiver answers 204 at once, the webhook is reset, and the backlog's delivery rate is measured
(batched as the worker sees fit). Management rate limits are switched off for the run.

  --shape S          embedded, cluster or both (default both)
  --publishes N      publishes to measure (default 100)
  --notifications N  notifications for the throughput run (default 1000)
  --help             this text`;

const { values: args } = parseArgs({
  options: {
    shape: { type: 'string', default: 'both' },
    publishes: { type: 'string', default: '100' },
    notifications: { type: 'string', default: '1000' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const publishes = Number(args.publishes);
const notifications = Number(args.notifications);
const shapes: Shape[] = args.shape === 'both' ? ['embedded', 'cluster'] : [args.shape as Shape];
if (!(publishes > 0 && notifications > 0) || !shapes.every((s) => s === 'embedded' || s === 'cluster')) {
  console.error(`Invalid options.\n\n${usage}`);
  process.exit(2);
}
// Inherited by every service process: the run measures webhooks, not the Management rate limits.
for (const name of ['PER_SECOND', 'PER_MINUTE', 'PER_HOUR']) process.env[`LECTERN_MANAGEMENT_${name}`] = '0';

/** A receiver answering `status` at once, recording when each codename first arrived with a 2xx. */
async function startReceiver() {
  const seen = new Map<string, number>();
  let posts = 0;
  const state = { status: 204 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      posts += 1;
      if (state.status >= 300) {
        res.writeHead(state.status).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        notifications: { data: { system: { codename: string } } }[];
      };
      for (const n of body.notifications) if (!seen.has(n.data.system.codename)) seen.set(n.data.system.codename, at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  return {
    url,
    state,
    seen,
    posts: () => posts,
    async until(codename: string): Promise<number> {
      for (;;) {
        const at = seen.get(codename);
        if (at !== undefined) return at;
        await new Promise((r) => setTimeout(r, 1));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

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

async function setUp(target: Target, receiverUrl: string) {
  const admin = `${target.managementUrl}/admin`;
  const project = await call(`${admin}/projects`, target.operatorToken, 'POST', { name: 'Webhook benchmark' });
  const projectId = String(project['id']);
  const key = await call(`${admin}/projects/${projectId}/keys`, target.operatorToken, 'POST', {
    kind: 'management',
    user_email: 'bench@example.com',
  });
  const mapi = (path: string, method: string, body?: unknown) =>
    call(`${target.managementUrl}/v2/projects/${projectId}${path}`, String(key['api_key']), method, body);
  await mapi('/types', 'POST', { name: 'Note', codename: 'note', elements: [] });
  const hook = await mapi('/webhooks-vnext', 'POST', {
    name: 'Benchmark',
    url: receiverUrl,
    secret: 'benchmark',
    delivery_triggers: { slot: 'published', events: 'all' },
  });
  return { mapi, webhookId: String(hook['id']) };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

async function measure(shape: Shape) {
  process.stderr.write(`${shape}: starting…\n`);
  const target = await startTarget(shape, { withWebhooks: true });
  const receiver = await startReceiver();
  try {
    const { mapi, webhookId } = await setUp(target, receiver.url);
    const latencies: number[] = [];
    const publishCalls: number[] = [];
    for (let i = 0; i < publishes; i++) {
      const codename = `note_${i}`;
      await mapi('/items', 'POST', { name: `Note ${i}`, codename, type: { codename: 'note' } });
      await mapi(`/items/codename/${codename}/variants/codename/default`, 'PUT', { elements: [] });
      const sent = performance.now();
      await mapi(`/items/codename/${codename}/variants/codename/default/publish`, 'PUT');
      publishCalls.push(performance.now() - sent);
      latencies.push((await receiver.until(codename)) - sent);
      process.stderr.write(`\r${shape}: ${i + 1}/${publishes} publishes`);
    }
    process.stderr.write('\n');

    receiver.state.status = 503;
    const postsBefore = receiver.posts();
    const createStarted = performance.now();
    let next = 0;
    const create = async () => {
      while (next < notifications) {
        const n = next++;
        await mapi('/taxonomies', 'POST', { name: `Group ${n}`, codename: `group_${n}`, terms: [] });
      }
    };
    await Promise.all(Array.from({ length: 8 }, create));
    const createRate = notifications / ((performance.now() - createStarted) / 1000);
    // Wait until every notification is stored: the backlog is the webhook's pending queue.
    const depth = async () => {
      const text = await (await fetch(`${target.metricsUrl}/metrics`)).text();
      return Number(/^lectern_webhook_notifications\{state="pending"\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    while ((await depth()) < notifications) await new Promise((r) => setTimeout(r, 50));
    receiver.state.status = 204;
    const started = performance.now();
    await mapi(`/webhooks-vnext/${webhookId}/reset`, 'POST');
    const last = Math.max(
      ...(await Promise.all(Array.from({ length: notifications }, (_, n) => receiver.until(`group_${n}`)))),
    );
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      shape,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      publishP50: percentile(
        [...publishCalls].sort((a, b) => a - b),
        50,
      ),
      createRate,
      deliveryRate: notifications / ((last - started) / 1000),
      posts: receiver.posts() - postsBefore,
    };
  } finally {
    await receiver.close();
    await target.stop();
  }
}

const rows = [];
for (const shape of shapes) rows.push(await measure(shape));
const num = (n: number, digits = 1) => n.toFixed(digits).padStart(10);
console.log(`\npublish request sent → notification received, ${publishes} publishes one after another\n`);
console.log('shape         p50 ms     p99 ms     max ms  publish call p50 ms');
for (const r of rows)
  console.log(`${r.shape.padEnd(10)} ${num(r.p50)} ${num(r.p99)} ${num(r.max)} ${num(r.publishP50).padStart(20)}`);
console.log(`\na backlog of ${notifications} notifications delivered to a receiver answering 204 at once\n`);
console.log('shape      events/s created  notifications/s delivered      POSTs');
for (const r of rows)
  console.log(
    `${r.shape.padEnd(10)} ${num(r.createRate).padStart(17)} ${num(r.deliveryRate).padStart(26)} ${String(r.posts).padStart(10)}`,
  );
