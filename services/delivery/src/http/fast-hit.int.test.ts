// The cache hit served before routing (read-path's createFastHit) over real HTTP: `inject` never
// reaches it, since it hands requests to Fastify directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, updateProject } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { memorySignals, openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { buildDeliveryApp } from '../app.ts';
import { sampleContent } from './testing/sample-content.ts';
import { openSampleIndex, WatchedIndex, type SampleIndex } from './testing/sample-index.ts';

let core: TestCore;
let projectId: string;
let deliveryKey: string;
let sample: SampleIndex;
const listeners: Listening[] = [];

beforeAll(async () => {
  core = await openTestCore();
  const seeded = await seedProject(core, ['delivery_primary']);
  projectId = seeded.projectId;
  deliveryKey = seeded.keys.delivery_primary?.value ?? '';
  sample = await openSampleIndex(projectId, sampleContent());
});
afterAll(async () => {
  for (const l of listeners) await l.close();
  await sample.close();
  await core.store.close();
});

/** A listener on a free port; `storeSignals`: the store's own (access changes), else ones the test sends. */
async function start(storeSignals = false) {
  const index = new WatchedIndex(sample.reader);
  const metrics = createProcessMetrics();
  const memory = memorySignals();
  const signals = storeSignals ? core.store.signals : memory;
  const app = buildDeliveryApp({
    channel: 'production',
    core,
    index,
    signals,
    metrics,
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
  });
  // Requests that reach Fastify at all (a hit answered before routing never does).
  const routed = { count: 0 };
  app.addHook('onRequest', async () => {
    routed.count += 1;
  });
  const listening = await listen(app, { host: '127.0.0.1', port: 0, graceMs: 100 });
  listeners.push(listening);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${listening.url}/${projectId}${path}`, { headers });
    const body = Buffer.from(await res.arrayBuffer());
    const shown = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date' && name !== 'x-cache'));
    return { status: res.status, cache: res.headers.get('x-cache'), headers: shown, body };
  };
  /** Requests counted for the items route with this status. */
  const counted = async (status: number) => {
    const text = await metrics.registry.metrics();
    const line = text
      .split('\n')
      .find(
        (l) =>
          l.startsWith('lectern_http_request_duration_seconds_count{') &&
          l.includes('route="/:projectId/items"') &&
          l.includes(`status="${status}"`),
      );
    return line === undefined ? 0 : Number(line.split(' ').at(-1));
  };
  return { get, counted, index, signals: memory, routed };
}

describe('cache hit before routing', () => {
  it('sends the bytes and headers of the answer it repeats, 304s a matching ETag, and counts each request', async () => {
    const { get, counted, routed } = await start();
    const first = await get('/items?limit=2');
    expect([first.status, first.cache]).toEqual([200, 'MISS']);
    const routedBefore = routed.count;
    const again = await get('/items?limit=2');
    expect([again.status, again.cache]).toEqual([200, 'HIT']);
    expect(routed.count).toBe(routedBefore);
    expect(again.body.equals(first.body)).toBe(true);
    // Every header the framework sent, with the same values (Date and X-Cache aside).
    expect(again.headers).toEqual(first.headers);
    expect(again.headers['content-length']).toBe(String(first.body.length));
    const etag = String(first.headers['etag']);
    const notModified = await get('/items?limit=2', { 'if-none-match': `"other", ${etag}` });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers['etag']).toBe(etag);
    expect(notModified.headers['content-type']).toBeUndefined();
    expect(await counted(200)).toBe(2);
    expect(await counted(304)).toBe(1);
  });

  it('never answers a caller that authentication would refuse, nor a request asking to wait for content', async () => {
    const { get, index } = await start(true);
    expect((await get('/items?limit=3')).status).toBe(200);
    expect((await get('/items?limit=3')).cache).toBe('HIT');
    await updateProject(core, { actor: operator, projectId, isSecureAccess: true });
    try {
      // The access signal of the change drops the held outcome; the secured project needs a key.
      await expect.poll(async () => (await get('/items?limit=3')).status).toBe(401);
      const keyed = await get('/items?limit=3', { authorization: `Bearer ${deliveryKey}` });
      expect(keyed.status).toBe(200);
      expect((await get('/items?limit=3', { authorization: 'Bearer wrong' })).status).toBe(401);
      const hit = await get('/items?limit=3', { authorization: `Bearer ${deliveryKey}` });
      expect([hit.status, hit.cache, hit.headers['cache-control']]).toEqual([200, 'HIT', 'private, no-cache']);
    } finally {
      await updateProject(core, { actor: operator, projectId, isSecureAccess: false });
    }
    // Waiting for new content reads the latest sequence, so it is never the held answer's shortcut.
    const reads = index.watermarkReads;
    await get('/items?limit=3', { 'x-kc-wait-for-loading-new-content': 'true' });
    expect(index.watermarkReads).toBeGreaterThan(reads);
  });

  it('misses once the watermark moves, and flags a stale answer', async () => {
    const { get, index, signals } = await start();
    // The index has applied everything committed: fresh answers.
    index.mark = await core.store.transaction((tx) => tx.outbox.latestSeq(projectId));
    expect((await get('/items?limit=4')).headers['x-stale-content']).toBe('0');
    const hit = await get('/items?limit=4');
    expect([hit.cache, hit.headers['x-stale-content']]).toEqual(['HIT', '0']);
    index.mark += 1;
    signals.emit('indexed', `${projectId}:${index.mark}`);
    expect((await get('/items?limit=4')).cache).toBe('MISS');
    // A commit the index has not applied yet: the held answer goes out flagged as stale.
    signals.emit('committed', `${projectId}:${index.mark + 1}`);
    const stale = await get('/items?limit=4');
    expect([stale.cache, stale.headers['x-stale-content']]).toEqual(['HIT', '1']);
  });
});
