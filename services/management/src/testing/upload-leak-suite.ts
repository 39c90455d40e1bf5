import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandonedUploadMs, sweepAbandonedUploads, type BlobStore, type Store } from '@lectern/core';
import { startTestManagement, type TestManagement } from './test-server.ts';

/** A blob store under test and a way to list everything it holds (bytes of any state, partial uploads too). */
export interface ListedBlobStore {
  readonly blobs?: BlobStore;
  /** Every stored object, half-written ones included; `dir` is the test server's blob-fs directory. */
  list(dir: string): Promise<string[]>;
}

/** Sends raw bytes of one request on a socket, then `end` decides how it stops. */
async function rawUpload(options: {
  server: TestManagement;
  contentLength: number;
  send: number;
  end: 'destroy' | 'half-close';
}): Promise<void> {
  const url = new URL(options.server.baseUrl);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  socket.write(
    `POST /v2/projects/${options.server.projectId}/files/torn.bin HTTP/1.1\r\n` +
      `host: ${url.host}\r\nauthorization: Bearer ${options.server.apiKey}\r\n` +
      `content-type: application/octet-stream\r\ncontent-length: ${options.contentLength}\r\n\r\n`,
  );
  // In several writes, so the server has begun storing before the client goes.
  for (let sent = 0; sent < options.send; sent += 65_536) {
    socket.write(Buffer.alloc(Math.min(65_536, options.send - sent), 7));
    await sleep(5);
  }
  await sleep(100);
  if (options.end === 'destroy') socket.destroy();
  else socket.end();
}

/**
 * Nothing refused may leave bytes behind (issue 27, finding 14): uploads that are torn, too short,
 * too large or refused after their bytes were written leave the blob store as it was, on the
 * adapter `open` gives, through the real HTTP route.
 */
export function describeUploadLeaks(options: {
  adapter: string;
  open: () => Promise<ListedBlobStore>;
  /** Bytes a torn upload sends before going (default 200 KB); S3 needs more than a part for a multipart upload. */
  tornBytes?: number;
}): void {
  const torn = options.tornBytes ?? 200_000;
  describe(`refused uploads on ${options.adapter}`, () => {
    let server: TestManagement;
    let store: ListedBlobStore;
    let isInsertFailing = false;
    beforeAll(async () => {
      store = await options.open();
      server = await startTestManagement({
        maxFileBytes: 4 * torn,
        ...(store.blobs ? { blobs: store.blobs } : {}),
        wrapStore: (inner: Store): Store => ({
          ...inner,
          transaction: (work) =>
            inner.transaction((tx) =>
              work(
                isInsertFailing
                  ? {
                      ...tx,
                      binaryFiles: {
                        ...tx.binaryFiles,
                        insert: () => Promise.reject(new Error('the database went away')),
                      },
                    }
                  : tx,
              ),
            ),
        }),
      });
    });
    afterAll(async () => {
      await server.close();
    });

    /** The store's listing once the server has settled: equal to `before`, or what leaked. */
    async function settledListing(before: string[]): Promise<string[]> {
      const list = () => store.list(server.blobDir);
      const deadline = Date.now() + 3_000;
      await sleep(300);
      let now = await list();
      while (Date.now() < deadline && JSON.stringify(now) !== JSON.stringify(before)) {
        await sleep(100);
        now = await list();
      }
      await sleep(300);
      return list();
    }

    it('keeps nothing of an upload whose client disconnects midway', async () => {
      const before = await store.list(server.blobDir);
      for (let i = 0; i < 5; i += 1) {
        await rawUpload({ server, contentLength: 3 * torn, send: torn + i * 50_000, end: 'destroy' });
      }
      expect(await settledListing(before)).toEqual(before);
    });

    it('keeps nothing of a body shorter than its Content-Length', async () => {
      const before = await store.list(server.blobDir);
      for (let i = 0; i < 3; i += 1) {
        await rawUpload({ server, contentLength: 2 * torn, send: torn, end: 'half-close' });
      }
      expect(await settledListing(before)).toEqual(before);
    });

    it('keeps nothing of an upload over the size limit', async () => {
      const before = await store.list(server.blobDir);
      const response = await fetch(`${server.baseUrl}/projects/${server.projectId}/files/big.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(4 * torn + 1),
      });
      expect(response.status).toBe(413);
      expect(await settledListing(before)).toEqual(before);
    });

    it('removes the bytes of an upload refused after they were written (the database fails)', async () => {
      const before = await store.list(server.blobDir);
      isInsertFailing = true;
      try {
        const response = await fetch(`${server.baseUrl}/projects/${server.projectId}/files/late.bin`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/octet-stream' },
          body: new Uint8Array(torn + 1),
        });
        expect(response.status).toBe(500);
      } finally {
        isInsertFailing = false;
      }
      expect(await settledListing(before)).toEqual(before);
    });

    it('leaves no journal entry behind the uploads above, refused or not', async () => {
      const rows = await server.core.store.db.selectFrom('pending_uploads').selectAll().execute();
      expect(rows).toEqual([]);
    });

    it('removes the bytes of an upload a crash interrupted, once it is hours old, and only those', async () => {
      const before = await store.list(server.blobDir);
      const now = server.core.clock.now().getTime();
      const crashed = `${server.projectId}/${randomUUID()}`;
      const inFlight = `${server.projectId}/${randomUUID()}`;
      for (const [key, age] of [
        [crashed, abandonedUploadMs + 60_000],
        [inFlight, 60_000],
      ] as const) {
        // What a process that died between storing the bytes and recording the file left.
        await server.core.store.transaction((tx) =>
          tx.pendingUploads.begin({ key, projectId: server.projectId, startedAt: new Date(now - age) }),
        );
        await server.blobs.put({ key, body: Readable.from([Buffer.alloc(1000, 1)]), contentType: 'text/plain' });
      }
      expect(await sweepAbandonedUploads(server.core, server.blobs)).toBe(1);
      expect(await server.blobs.stat(crashed)).toBeNull();
      expect(await server.blobs.stat(inFlight)).not.toBeNull();
      await server.blobs.delete(inFlight);
      await server.core.store.transaction((tx) => tx.pendingUploads.end(inFlight));
      expect(await store.list(server.blobDir)).toEqual(before);
    });

    it('still stores an upload that completes', async () => {
      const before = await store.list(server.blobDir);
      const response = await fetch(`${server.baseUrl}/projects/${server.projectId}/files/ok.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(300_000),
      });
      expect(response.status).toBe(200);
      expect((await store.list(server.blobDir)).length).toBeGreaterThan(before.length);
    });
  });
}
