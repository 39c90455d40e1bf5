import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { BinaryFileRecord, BlobStore } from '@lectern/core';
import { parseImageQuery } from './image-query.ts';
import { inspectImage, quadrantPng } from './test-images.ts';
import { planTransform, transformedImage } from './transformed-image.ts';

/**
 * The transform cache over one blob adapter: the first request makes the image and stores it
 * under the plan's key; later requests (and concurrent ones) read it without the original.
 */
export function describeTransformCache(options: { adapter: string; open: () => Promise<BlobStore> }): void {
  describe(`transform cache on ${options.adapter}`, () => {
    it('stores a transformed image once and serves it from the store afterwards', async () => {
      const blobs = await options.open();
      const projectId = randomUUID();
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
      const plan = planTransform({ file, spec: parseImageQuery(new URLSearchParams('w=32&fm=webp')), accept: '' });
      if (!plan) throw new Error('a PNG is transformable');
      expect(await blobs.stat(plan.key)).toBeNull();
      let opened = 0;
      const source = async () => {
        opened += 1;
        return blobs.get(blobKey);
      };
      const [a, b] = await Promise.all([
        transformedImage({ blobs, file, plan, source }),
        transformedImage({ blobs, file, plan, source }),
      ]);
      expect(opened).toBe(1);
      const first = await buffer(a.body);
      expect((await buffer(b.body)).equals(first)).toBe(true);
      expect(await inspectImage(first)).toMatchObject({ format: 'webp', width: 32, height: 24 });
      expect(await blobs.stat(plan.key)).toMatchObject({ contentType: 'image/webp', size: first.length });

      const again = await transformedImage({ blobs, file, plan, source });
      expect(opened).toBe(1);
      expect((await buffer(again.body)).equals(first)).toBe(true);
      expect(again).toMatchObject({ contentType: 'image/webp', size: first.length });
    });
  });
}
