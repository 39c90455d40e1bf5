import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '@lectern/core';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * A body of `size` pseudo-random bytes produced chunk by chunk as the consumer reads, never
 * materialised whole; `digest()` is the sha256 of what was produced, once it has all been read.
 */
function generatedBody(size: number, chunkSize = 64 * 1024): { body: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let produced = 0;
  const seed = randomBytes(chunkSize);
  const body = new Readable({
    read() {
      if (produced >= size) {
        this.push(null);
        return;
      }
      const n = Math.min(chunkSize, size - produced);
      const chunk = Buffer.from(seed.subarray(0, n));
      chunk.writeUInt32BE(produced >>> 0, 0);
      produced += n;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { body, digest: () => hash.copy().digest('hex') };
}

async function digestOf(stream: Readable): Promise<{ digest: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    const b = chunk as Buffer;
    size += b.length;
    hash.update(b);
  }
  return { digest: hash.digest('hex'), size };
}

/**
 * The contract every BlobStore adapter honours, run against a real engine (a directory, an S3
 * server). `open` returns a store; tests use fresh random keys, so stores may be shared.
 */
export function describeBlobContract(options: {
  adapter: string;
  open: () => Promise<BlobStore>;
  close?: () => Promise<void>;
}): void {
  describe(`blob store contract on ${options.adapter}`, () => {
    let blobs: BlobStore;
    const key = (name = 'file') => `${randomUUID()}/${name}`;
    beforeAll(async () => {
      blobs = await options.open();
    });
    afterAll(async () => {
      await options.close?.();
    });

    it('puts a blob, then stats it and reads the same bytes back', async () => {
      const k = key('photo.png');
      const bytes = randomBytes(70_001);
      const info = await blobs.put({ key: k, body: Readable.from([bytes]), contentType: 'image/png' });
      expect(info).toEqual({ key: k, size: bytes.length, contentType: 'image/png' });
      expect(await blobs.stat(k)).toEqual({ key: k, size: bytes.length, contentType: 'image/png' });
      const stream = await blobs.get(k);
      expect(stream).not.toBeNull();
      expect((await bytesOf(stream as Readable)).equals(bytes)).toBe(true);
    });

    it('stores an empty blob', async () => {
      const k = key();
      expect(await blobs.put({ key: k, body: Readable.from([]), contentType: 'text/plain' })).toMatchObject({
        size: 0,
      });
      expect((await bytesOf((await blobs.get(k)) as Readable)).length).toBe(0);
    });

    it('answers null for a missing key on stat and get', async () => {
      expect(await blobs.stat(key())).toBeNull();
      expect(await blobs.get(key())).toBeNull();
    });

    it('deletes idempotently', async () => {
      const k = key();
      await blobs.put({ key: k, body: Readable.from([Buffer.from('bye')]), contentType: 'text/plain' });
      await blobs.delete(k);
      expect(await blobs.stat(k)).toBeNull();
      expect(await blobs.get(k)).toBeNull();
      await blobs.delete(k);
      await blobs.delete(key());
    });

    it('streams a 20 MB body in and out', async () => {
      const k = key('large.bin');
      const size = 20 * 1024 * 1024 + 13;
      const source = generatedBody(size);
      const info = await blobs.put({ key: k, body: source.body, contentType: 'application/octet-stream', size });
      expect(info.size).toBe(size);
      const back = await digestOf((await blobs.get(k)) as Readable);
      expect(back).toEqual({ digest: source.digest(), size });
      await blobs.delete(k);
    });

    it('keeps concurrent puts of different keys apart', async () => {
      const entries = Array.from({ length: 8 }, (_, i) => ({ k: key(`n${i}.bin`), bytes: randomBytes(10_000 + i) }));
      await Promise.all(
        entries.map((e) => blobs.put({ key: e.k, body: Readable.from([e.bytes]), contentType: 'text/plain' })),
      );
      for (const e of entries) {
        expect((await bytesOf((await blobs.get(e.k)) as Readable)).equals(e.bytes)).toBe(true);
      }
    });

    it('stores nothing when the body fails midway', async () => {
      const k = key();
      const failing = Readable.from(
        (async function* () {
          yield Buffer.alloc(1024, 1);
          throw new Error('client went away');
        })(),
      );
      await expect(blobs.put({ key: k, body: failing, contentType: 'text/plain' })).rejects.toThrow();
      expect(await blobs.stat(k)).toBeNull();
    });

    it('lists the blobs under a prefix with their sizes, sorted by key, and none that failed', async () => {
      const prefix = `${randomUUID()}/`;
      await blobs.put({ key: `${prefix}b/two.bin`, body: Readable.from([randomBytes(7)]), contentType: 'text/plain' });
      await blobs.put({ key: `${prefix}a.bin`, body: Readable.from([randomBytes(3)]), contentType: 'text/plain' });
      await blobs.put({ key: `${prefix}gone.bin`, body: Readable.from([randomBytes(5)]), contentType: 'text/plain' });
      await blobs.delete(`${prefix}gone.bin`);
      const failing = Readable.from(
        (async function* () {
          yield Buffer.alloc(1024, 1);
          throw new Error('client went away');
        })(),
      );
      await expect(blobs.put({ key: `${prefix}torn.bin`, body: failing, contentType: 'text/plain' })).rejects.toThrow();
      expect(await blobs.list(prefix)).toEqual([
        { key: `${prefix}a.bin`, size: 3 },
        { key: `${prefix}b/two.bin`, size: 7 },
      ]);
      expect(await blobs.list(`${randomUUID()}/`)).toEqual([]);
      const all = await blobs.list('');
      expect(all.map((e) => e.key)).toEqual(expect.arrayContaining([`${prefix}a.bin`, `${prefix}b/two.bin`]));
    });

    it('refuses keys that could escape their namespace', async () => {
      for (const bad of ['../x', 'a/../../b', '/abs', 'a//b', '.hidden', 'a/./b', '']) {
        await expect(blobs.stat(bad)).rejects.toThrow(/Invalid blob key/);
        await expect(
          blobs.put({ key: bad, body: Readable.from([Buffer.from('x')]), contentType: 'text/plain' }),
        ).rejects.toThrow(/Invalid blob key/);
      }
    });
  });
}
