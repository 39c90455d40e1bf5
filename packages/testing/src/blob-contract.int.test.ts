import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFsBlobStore } from '@lectern/blob-fs';
import { describeBlobContract } from './blob-contract.ts';

let root = '';
describeBlobContract({
  adapter: 'blob-fs (local directory)',
  open: async () => {
    root = await mkdtemp(join(tmpdir(), 'lectern-blob-fs-'));
    return openFsBlobStore({ root });
  },
  close: async () => {
    // Failed and finished puts leave no half-written file behind.
    const leftovers = await readdir(join(root, 'tmp')).catch(() => []);
    await rm(root, { recursive: true, force: true });
    if (leftovers.length > 0) throw new Error(`tmp/ not empty: ${leftovers.join(', ')}`);
  },
});
