import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'minio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobStoreFullError, type BlobStore } from '@lectern/core';
import { isLecternError, toManagementError } from '@lectern/errors';
import { openS3BlobStore } from './s3-blob-store.ts';

/**
 * A MinIO of its own on a 16 MiB tmpfs, filled to the last byte: what the adapter answers on a
 * really full volume. The binary is the one the `s3` project's set-up installs (test/engines/
 * engine-install.ts: `<engine cache>/minio-<version>/minio`); mounting a tmpfs needs root (as in
 * CI and on the developers' machines). Without either the file skips, loudly; in CI it fails.
 */
const cache = process.env['LECTERN_ENGINES_CACHE'] ?? join(homedir(), '.cache', 'lectern-engines');
const binary = existsSync(cache)
  ? readdirSync(cache)
      .filter((n) => n.startsWith('minio-v'))
      .map((n) => join(cache, n, 'minio'))
      .find((p) => existsSync(p))
  : undefined;
const problem =
  binary === undefined
    ? `no MinIO binary under ${cache} (node test/engines/install.ts minio)`
    : process.getuid?.() !== 0
      ? 'mounting a tmpfs needs root'
      : undefined;
if (problem) console.warn(`!!! blob-s3 full-volume tests SKIPPED: ${problem}`);
if (problem && process.env['CI'] === 'true') throw new Error(`blob-s3 full-volume tests: ${problem}`);

const credentials = { accessKey: 'lectern-full', secretKey: 'lectern-full-secret' };
const bucket = 'lectern-full-volume';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Writes zeros to `file` until the file system refuses (ENOSPC): the volume is full. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(problem !== undefined)('blob-s3 on a MinIO whose volume is full', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-full-volume-'));
  const data = join(dir, 'data');
  const filler = join(data, 'filler');
  let server: ChildProcess | undefined;
  let blobs: BlobStore;
  let admin: Client;

  const put = (key: string, bytes: Buffer) =>
    blobs.put({ key, body: Readable.from([bytes]), contentType: 'application/octet-stream', size: bytes.length });
  /** Objects and unfinished multipart uploads: what is stored, visible or not. */
  const stored = async () => {
    const names: string[] = [];
    for await (const o of admin.listObjectsV2(bucket, '', true)) names.push(`object ${(o as { name: string }).name}`);
    for await (const u of admin.listIncompleteUploads(bucket, '', true)) names.push(`incomplete ${u.key}`);
    return names.sort();
  };

  beforeAll(async () => {
    spawnSync('mkdir', ['-p', data]);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', data], { encoding: 'utf8' });
    if (mounted.status !== 0) throw new Error(`mount tmpfs: ${mounted.stderr}`);
    const port = await freePort();
    server = spawn(binary!, ['server', data, '--address', `127.0.0.1:${port}`, '--console-address', '127.0.0.1:0'], {
      env: {
        ...process.env,
        MINIO_ROOT_USER: credentials.accessKey,
        MINIO_ROOT_PASSWORD: credentials.secretKey,
        MINIO_BROWSER: 'off',
        MINIO_UPDATE: 'off',
        MINIO_CALLHOME_ENABLE: 'off',
      },
      stdio: 'ignore',
    });
    const endpoint = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i += 1) {
      const ready = await fetch(`${endpoint}/minio/health/ready`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ready) break;
      if (i > 300) throw new Error('MinIO on the tmpfs did not become ready in 30 s');
      await sleep(100);
    }
    blobs = openS3BlobStore({ endpoint, ...credentials, bucket });
    admin = new Client({ endPoint: '127.0.0.1', port, useSSL: false, pathStyle: true, ...credentials });
  }, 60_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
      await new Promise((resolve) => server!.once('exit', resolve));
    }
    spawnSync('umount', [data]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a PUT and a multipart upload on the full volume are BlobStoreFullError and leave nothing stored', async () => {
    await put('p/before', Buffer.from('stored before the volume filled'));
    const before = await stored();
    fill(filler);
    expect(statfsSync(data).bavail).toBe(0);

    // Right after the fill MinIO's last drive check still saw room: it answers 500 InternalError
    // "no space left on device" (507 XMinioStorageFull once it has looked again).
    const single = await put('p/one-put', randomBytes(4 * 1024 * 1024)).catch((error: unknown) => error);
    expect(single).toBeInstanceOf(BlobStoreFullError);
    console.log(`[blob-s3] PUT on a full volume: ${(single as Error).message}`);
    // More than one 5 MiB part: initiating the upload already fails (its metadata has no room).
    const multipart = await put('p/multipart', randomBytes(6 * 1024 * 1024)).catch((error: unknown) => error);
    expect(multipart).toBeInstanceOf(BlobStoreFullError);
    console.log(`[blob-s3] multipart upload on a full volume: ${(multipart as Error).message}`);
    expect(await stored()).toEqual(before);

    rmSync(filler);
    const file = randomBytes(4 * 1024 * 1024);
    let accepted = false;
    for (let i = 0; i < 50 && !accepted; i += 1) {
      accepted = await put('p/after', file).then(
        () => true,
        (error: unknown) => {
          if (!(error instanceof BlobStoreFullError)) throw error;
          return sleep(200).then(() => false);
        },
      );
    }
    expect(accepted).toBe(true);
    const read = await blobs.get('p/after');
    const chunks: Buffer[] = [];
    for await (const chunk of read!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(file)).toBe(true);
  }, 60_000);

  it('with the server gone, a write is DEPENDENCY_UNAVAILABLE: 503 with Retry-After, not 500', async () => {
    server!.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));
    const failed = await put('p/gone', Buffer.from('x')).catch((error: unknown) => error);
    expect(isLecternError(failed) && failed.code).toBe('DEPENDENCY_UNAVAILABLE');
    const answer = toManagementError(failed, 'req-1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
  }, 30_000);
});
