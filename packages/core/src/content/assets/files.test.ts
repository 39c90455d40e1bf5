import { PassThrough, Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CoreDeps } from '../../deps.ts';
import { operator } from '../../domain/actor.ts';
import { BlobStoreFullError, type BlobInfo, type BlobStore } from '../../ports/blob-store.ts';
import { randomIds } from '../../ports/id-source.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import type { BinaryFileRecord } from './asset-record.ts';
import { uploadBinaryFile } from './files.ts';

/** A BlobStore in memory that reads bodies chunk by chunk, as real adapters do. */
function memoryBlobs(): BlobStore & { keys: () => string[] } {
  const blobs = new Map<string, { bytes: Buffer; contentType: string }>();
  return {
    keys: () => [...blobs.keys()],
    async put({ key, body, contentType }): Promise<BlobInfo> {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      blobs.set(key, { bytes, contentType });
      return { key, size: bytes.length, contentType };
    },
    stat: (key) => {
      const b = blobs.get(key);
      return Promise.resolve(b ? { key, size: b.bytes.length, contentType: b.contentType } : null);
    },
    get: (key) => Promise.resolve(blobs.has(key) ? Readable.from([blobs.get(key)?.bytes]) : null),
    delete: (key) => Promise.resolve(void blobs.delete(key)),
    list: (prefix) =>
      Promise.resolve(
        [...blobs.entries()]
          .filter(([key]) => key.startsWith(prefix))
          .map(([key, b]) => ({ key, size: b.bytes.length }))
          .sort((a, b) => (a.key < b.key ? -1 : 1)),
      ),
  };
}

function deps(recorded: BinaryFileRecord[]): CoreDeps {
  const tx = {
    binaryFiles: { insert: (f: BinaryFileRecord) => Promise.resolve(void recorded.push(f)) },
    pendingUploads: {
      begin: () => Promise.resolve(),
      end: () => Promise.resolve(),
      startedBefore: () => Promise.resolve([]),
    },
  };
  return {
    store: {
      transaction: <T>(work: (tx: UnitOfWork) => Promise<T>) => work(tx as unknown as UnitOfWork),
      ping: () => Promise.resolve(),
      close: () => Promise.resolve(),
    },
    clock: { now: () => new Date('2026-01-01T00:00:00Z') },
    ids: { ...randomIds, uuid: () => '0f000000-0000-4000-8000-000000000001' },
  };
}

const projectId = '11111111-1111-4111-8111-111111111111';
const base = { actor: operator, projectId, fileName: 'a.png', maxBytes: 10_000 };

/** The smallest PNG header image-size needs: signature and IHDR with the size. */
function pngHead(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'ascii');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    ihdr,
    deflateSync(Buffer.alloc(64)),
  ]);
}

describe('uploadBinaryFile', () => {
  it('reads an image size from the first bytes and records the file', async () => {
    const recorded: BinaryFileRecord[] = [];
    const body = pngHead(640, 480);
    const file = await uploadBinaryFile(deps(recorded), memoryBlobs(), {
      ...base,
      contentType: 'image/png',
      contentLength: String(body.length),
      body: Readable.from([body.subarray(0, 10), body.subarray(10)]),
    });
    expect(file).toMatchObject({ imageWidth: 640, imageHeight: 480, size: body.length, contentType: 'image/png' });
    expect(recorded).toEqual([file]);
  });

  it('fails, storing nothing, when the body ends before Content-Length or the client goes away', async () => {
    const recorded: BinaryFileRecord[] = [];
    const blobs = memoryBlobs();
    const short = uploadBinaryFile(deps(recorded), blobs, {
      ...base,
      contentType: 'text/plain',
      contentLength: '100',
      body: Readable.from([Buffer.from('only this')]),
    });
    await expect(short).rejects.toMatchObject({ code: 'INVALID_REQUEST_BODY' });
    const gone = new PassThrough();
    const aborted = uploadBinaryFile(deps(recorded), blobs, {
      ...base,
      contentType: 'text/plain',
      contentLength: '100',
      body: gone,
    });
    gone.write(Buffer.alloc(10));
    gone.destroy();
    await expect(aborted).rejects.toThrow(/ended before/);
    expect(recorded).toEqual([]);
    expect(blobs.keys()).toEqual([]);
  });

  it('refuses with FILE_STORAGE_FULL, recording nothing, when the blob store has no room', async () => {
    const recorded: BinaryFileRecord[] = [];
    const full: BlobStore = {
      ...memoryBlobs(),
      put: () => Promise.reject(new BlobStoreFullError('no space left')),
    };
    const upload = uploadBinaryFile(deps(recorded), full, {
      ...base,
      contentType: 'text/plain',
      contentLength: '4',
      body: Readable.from([Buffer.from('full')]),
    });
    await expect(upload).rejects.toMatchObject({ code: 'FILE_STORAGE_FULL' });
    expect(recorded).toEqual([]);
  });

  it('checks headers and size before reading the body', async () => {
    const cases = [
      [{ contentType: undefined, contentLength: '1' }, 'FILE_CONTENT_TYPE_MISSING'],
      [{ contentType: 'text/plain', contentLength: undefined }, 'FILE_CONTENT_LENGTH_MISSING'],
      [{ contentType: 'text/plain', contentLength: '-1' }, 'FILE_CONTENT_LENGTH_MISSING'],
      [{ contentType: 'text/plain', contentLength: '10001' }, 'FILE_TOO_LARGE'],
    ] as const;
    for (const [headers, code] of cases) {
      const body = new PassThrough();
      await expect(uploadBinaryFile(deps([]), memoryBlobs(), { ...base, ...headers, body })).rejects.toMatchObject({
        code,
      });
      expect(body.readableFlowing).toBeNull();
    }
    await expect(
      uploadBinaryFile(deps([]), null, {
        ...base,
        contentType: 'text/plain',
        contentLength: '1',
        body: new PassThrough(),
      }),
    ).rejects.toMatchObject({ code: 'FILE_STORAGE_UNAVAILABLE' });
  });
});
