import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFsBlobStore } from '@lectern/blob-fs';
import { describeTransformCache } from '../testing/transform-cache-suite.ts';

describeTransformCache({
  adapter: 'blob-fs',
  open: async () => openFsBlobStore({ root: await mkdtemp(join(tmpdir(), 'lectern-transform-cache-')) }),
});
