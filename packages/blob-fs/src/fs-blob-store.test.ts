import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { openFsBlobStore } from './fs-blob-store.ts';

const root = mkdtempSync(join(tmpdir(), 'lectern-blobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;

it('stores bytes readable by the owner alone (issue 27, finding 11)', async () => {
  const store = openFsBlobStore({ root: join(root, 'blobs') });
  await store.put({ key: 'p/a/file.txt', body: Readable.from([Buffer.from('secret')]), contentType: 'text/plain' });
  expect(modeOf(join(root, 'blobs', 'data', 'p', 'a', 'file.txt'))).toBe(0o600);
  expect(modeOf(join(root, 'blobs', 'meta', 'p', 'a', 'file.txt'))).toBe(0o600);
  for (const dir of ['data', 'data/p', 'data/p/a', 'meta/p', 'tmp'])
    expect(modeOf(join(root, 'blobs', dir)), dir).toBe(0o700);
});
