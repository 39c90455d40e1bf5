import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobStoreFullError, isValidBlobKey, type BlobEntry, type BlobInfo, type BlobStore } from '@lectern/core';

/** A write the file system refused for want of space (a full disk or volume, a quota reached). */
async function refusedWhenFull<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    if (code === 'ENOSPC' || code === 'EDQUOT')
      throw new BlobStoreFullError(`The blob directory's file system is full (${code}).`, { cause: error });
    throw error;
  }
}

export interface FsBlobStoreOptions {
  /** Directory holding the blobs; created when missing. */
  readonly root: string;
}

/*
 * Layout under `root`: the bytes of key `a/b` in `data/a/b`, its content type in `meta/a/b`,
 * and half-written files in `tmp/`. A put writes into `tmp/` and renames into place, so a reader
 * sees the old blob or the new one, never a partial one; the data file appears last, so a blob
 * exists exactly when its data file does. Keys cannot name `.` or `..` segments (isValidBlobKey),
 * so no key leaves its tree.
 */

/** Age after which a file in tmp/ is a crashed put's leftover (ms). */
const staleTmpMs = 24 * 60 * 60 * 1000;

function notFound(error: unknown): boolean {
  return (error as { code?: string })?.code === 'ENOENT';
}

/** Directories this store creates are owner-only, and so are the files: assets may be unpublished. */
const dirMode = 0o700;
const fileMode = 0o600;

/** A BlobStore on a local directory (the embedded shape). */
export function openFsBlobStore(options: FsBlobStoreOptions): BlobStore {
  const dataRoot = join(options.root, 'data');
  const metaRoot = join(options.root, 'meta');
  const tmpRoot = join(options.root, 'tmp');

  const paths = (key: string) => {
    if (!isValidBlobKey(key)) throw new TypeError(`Invalid blob key '${key}'`);
    const relative = key.split('/').join(sep);
    return { data: join(dataRoot, relative), meta: join(metaRoot, relative) };
  };

  let isTmpSwept = false;
  /** Half-written files a crash left in tmp/ (older than a day: no put lives that long) go on the first put. */
  async function sweepTmp(): Promise<void> {
    isTmpSwept = true;
    const cutoff = Date.now() - staleTmpMs;
    for (const name of await readdir(tmpRoot).catch(() => [] as string[])) {
      const path = join(tmpRoot, name);
      const info = await stat(path).catch(() => null);
      if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
    }
  }
  async function stageFile(write: (path: string) => Promise<void>): Promise<string> {
    if (!isTmpSwept) await sweepTmp();
    await mkdir(tmpRoot, { recursive: true, mode: dirMode });
    const path = join(tmpRoot, randomUUID());
    try {
      await write(path);
      return path;
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
  }

  async function moveInto(from: string, to: string): Promise<void> {
    await mkdir(dirname(to), { recursive: true, mode: dirMode });
    await rename(from, to);
  }

  async function statOf(key: string): Promise<BlobInfo | null> {
    const p = paths(key);
    try {
      const info = await stat(p.data);
      const contentType = await readFile(p.meta, 'utf8').catch((error: unknown) => {
        if (notFound(error)) return 'application/octet-stream';
        throw error;
      });
      return { key, size: info.size, contentType };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  return {
    put: (input) =>
      refusedWhenFull(async () => {
        const { key, body, contentType } = input;
        const p = paths(key);
        const data = await stageFile(async (path) => {
          const file = createWriteStream(path, { flags: 'wx', mode: fileMode });
          try {
            await pipeline(body, file);
          } catch (error) {
            // pipeline rejects at the first error, while the file may still be opening or
            // flushing; removing it before it is closed would let the open create it afterwards.
            if (!file.closed) await once(file, 'close').catch(() => undefined);
            throw error;
          }
        });
        try {
          const meta = await stageFile((path) => writeFile(path, contentType, { flag: 'wx', mode: fileMode }));
          await moveInto(meta, p.meta);
          await moveInto(data, p.data);
        } catch (error) {
          await rm(data, { force: true });
          throw error;
        }
        const info = await statOf(key);
        if (!info) throw new Error(`Blob '${key}' vanished right after it was written`);
        return info;
      }),
    stat: statOf,
    async get(key) {
      const p = paths(key);
      // Open first, so an absent blob is a null and not a stream that errors later.
      const stream = createReadStream(p.data);
      try {
        await new Promise<void>((resolve, reject) => {
          stream.once('open', () => resolve());
          stream.once('error', reject);
        });
      } catch (error) {
        stream.destroy();
        if (notFound(error)) return null;
        throw error;
      }
      return stream as Readable;
    },
    async delete(key) {
      const p = paths(key);
      await rm(p.data, { force: true });
      await rm(p.meta, { force: true });
    },
    async list(prefix) {
      // Only `data/` is walked: a blob exists exactly when its data file does (see the layout).
      const names = await readdir(dataRoot, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
        if (notFound(error)) return [];
        throw error;
      });
      const entries: BlobEntry[] = [];
      for (const entry of names) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        const key = relative(dataRoot, path).split(sep).join('/');
        if (!key.startsWith(prefix)) continue;
        const info = await stat(path).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error)));
        if (info) entries.push({ key, size: info.size });
      }
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
