import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { BinaryFileRecord, BlobStore } from '@lectern/core';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { defaultImageLimits, type ImageLimits } from '../images/image-cache.ts';
import { parseImageQuery } from '../images/image-query.ts';
import { inspectImage, quadrantPng } from './test-images.ts';
import { planTransform, resolvePlan, sourceReader, transformedImage } from '../images/transformed-image.ts';

interface Setup {
  core: TestCore;
  blobs: BlobStore;
  file: BinaryFileRecord;
  /** Serves the query (a hit or a miss); `opened` counts reads of the original. */
  request(query: string, limits?: ImageLimits): Promise<{ key: string; bytes: Buffer; contentType: string }>;
  opened(): number;
  /** The cache's ledger rows of the project: key and bytes. */
  ledger(): Promise<{ key: string; bytes: number }[]>;
}

async function setUp(open: () => Promise<BlobStore>): Promise<Setup> {
  const core = await openTestCore();
  const { projectId } = await seedProject(core, []);
  const blobs = await open();
  const id = randomUUID();
  const png = await quadrantPng({ width: 64, height: 48 });
  const blobKey = `${projectId}/${id}`;
  await blobs.put({ key: blobKey, body: Readable.from([png]), contentType: 'image/png', size: png.length });
  const file: BinaryFileRecord = {
    projectId,
    id,
    fileName: 'q.png',
    contentType: 'image/png',
    size: png.length,
    imageWidth: 64,
    imageHeight: 48,
    blobKey,
    createdAt: new Date(),
  };
  let opened = 0;
  const counting: BlobStore = {
    ...blobs,
    get: (key) => {
      if (key === blobKey) opened += 1;
      return blobs.get(key);
    },
  };
  return {
    core,
    blobs,
    file,
    opened: () => opened,
    async request(query, limits = defaultImageLimits) {
      const plan = planTransform({ file, spec: parseImageQuery(new URLSearchParams(query)), accept: '' });
      if (!plan) throw new Error(`'${query}' changes nothing`);
      const source = sourceReader(counting, file);
      const resolved = await resolvePlan({ file, plan, limits, source });
      if (!resolved) throw new Error(`'${query}' resolves to the original`);
      const image = await transformedImage({ core, blobs: counting, limits, file, resolved, source });
      return { key: resolved.key, bytes: await buffer(image.body), contentType: image.contentType };
    },
    async ledger() {
      const rows = await core.store.transaction((tx) => tx.imageCache.leastRecentlyUsed(projectId, 1000));
      return rows.map((r) => ({ key: r.key, bytes: r.bytes })).sort((a, b) => a.key.localeCompare(b.key));
    },
  };
}

/**
 * The transform cache over one blob adapter: the first request makes the image and stores it;
 * later and concurrent ones read it; equivalent queries share one entry; the project's cache stays
 * under its bound by evicting the least recently used; new transformations are rate-limited.
 */
export function describeTransformCache(options: { adapter: string; open: () => Promise<BlobStore> }): void {
  describe(`transform cache on ${options.adapter}`, () => {
    it('stores a transformed image once and serves it from the store afterwards', async () => {
      const s = await setUp(options.open);
      const [a, b] = await Promise.all([s.request('w=32&fm=webp'), s.request('w=32&fm=webp')]);
      expect(b.bytes.equals(a.bytes)).toBe(true);
      expect(await inspectImage(a.bytes)).toMatchObject({ format: 'webp', width: 32, height: 24 });
      expect(await s.blobs.stat(a.key)).toMatchObject({ contentType: 'image/webp', size: a.bytes.length });
      expect(await s.ledger()).toEqual([{ key: a.key, bytes: a.bytes.length }]);
      const opened = s.opened();
      const again = await s.request('w=32&fm=webp');
      expect(again.bytes.equals(a.bytes)).toBe(true);
      expect(s.opened()).toBe(opened);
    });

    it('never upscales, and equivalent queries share one cached image', async () => {
      const s = await setUp(options.open);
      const huge = await s.request('w=4096&h=4096&fit=scale&fm=webp');
      expect(await inspectImage(huge.bytes)).toMatchObject({ width: 64, height: 48 });
      for (const same of ['w=8192&fm=webp', 'w=64&dpr=5&fm=webp', 'fm=webp&q=85', 'fm=WEBP&q=85.0001'])
        expect((await s.request(same)).key, same).toBe(huge.key);
      const q50 = await s.request('w=32&fm=jpg&q=50');
      expect((await s.request('w=32&fm=jpg&q=50.0001')).key).toBe(q50.key);
      expect((await s.request('w=32&fm=jpg&q=49.6')).key).toBe(q50.key);
      // An opaque source: a background changes nothing, in any spelling.
      expect((await s.request('w=32&fm=jpg&q=50&bg=F00')).key).toBe(q50.key);
      expect(await s.ledger()).toHaveLength(2);
    });

    it('keeps each project under its bound, evicting the least recently used', async () => {
      const s = await setUp(options.open);
      const a = await s.request('w=40&fm=png8');
      const bound = Math.floor(a.bytes.length * 2.5);
      const limits = { ...defaultImageLimits, cacheBytesPerProject: bound };
      s.core.clock.advance(61_000);
      const b = await s.request('w=41&fm=png8', limits);
      s.core.clock.advance(61_000);
      await s.request('w=40&fm=png8', limits); // a hit: A is now used more recently than B
      s.core.clock.advance(61_000);
      const c = await s.request('w=42&fm=png8', limits);
      const ledger = await s.ledger();
      expect(ledger.map((e) => e.key).sort()).toEqual([a.key, c.key].sort());
      expect(ledger.reduce((n, e) => n + e.bytes, 0)).toBeLessThanOrEqual(bound);
      expect(await s.blobs.stat(b.key)).toBeNull();
      expect(await s.blobs.stat(a.key)).not.toBeNull();
      // An evicted image is made again when asked for.
      expect((await s.request('w=41&fm=png8', limits)).bytes.equals(b.bytes)).toBe(true);
    });

    it('refuses a burst of new transformations over the rate (429) while cached ones still answer', async () => {
      const s = await setUp(options.open);
      const limits = { ...defaultImageLimits, transformsPerSecond: 3 };
      const cached = await s.request('w=20&fm=webp', limits);
      s.core.clock.advance(1_000);
      const burst = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => s.request(`w=${21 + i}&fm=webp`, limits)),
      );
      expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      const refused = burst.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
      expect(refused).toHaveLength(3);
      for (const error of refused) expect(error).toMatchObject({ code: 'RATE_LIMITED' });
      expect((await s.request('w=20&fm=webp', limits)).bytes.equals(cached.bytes)).toBe(true);
      s.core.clock.advance(1_000);
      await expect(s.request('w=30&fm=webp', limits)).resolves.toMatchObject({ contentType: 'image/webp' });
    });
  });
}
