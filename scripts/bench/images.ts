// Image transformations on asset URLs: the time to make a transformed image (a cache miss:
// read, decode, transform, encode, store blob and ledger row) and to serve it again from the cache, for a
// 2400 × 1600 JPEG of noise (a photo's worst case) on the disk adapter. `node scripts/bench/images.ts [--runs N]`.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { openFsBlobStore } from '../../packages/blob-fs/src/index.ts';
import { parseImageQuery } from '../../services/management/src/images/image-query.ts';
import {
  planTransform,
  resolvePlan,
  sourceReader,
  transformedImage,
} from '../../services/management/src/images/transformed-image.ts';
import { defaultImageLimits } from '../../services/management/src/images/image-cache.ts';
import { openTestCore, seedProject } from '../../packages/testing/src/index.ts';
import { noisyJpeg } from '../../services/management/src/testing/test-images.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(values.runs));
const queries = [
  'w=800',
  'w=800&fm=webp',
  'w=400&fm=avif',
  'rect=600,400,1200,800&w=600',
  'w=300&h=300&fit=crop&crop=focalpoint&fp-x=0.7&fp-y=0.3&fp-z=2',
  'w=1280&h=1024&fit=clip&fm=pjpg&q=70',
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const root = await mkdtemp(join(tmpdir(), 'lectern-bench-images-'));
try {
  const blobs = openFsBlobStore({ root });
  // The cache's ledger lives in the database: an in-memory PGlite one; no rate limit here.
  const core = await openTestCore();
  const { projectId } = await seedProject(core, []);
  const limits = { ...defaultImageLimits, transformsPerSecond: 0 };
  const jpeg = await noisyJpeg({ width: 2400, height: 1600 });
  const rows: string[][] = [];
  for (const query of queries) {
    const miss: number[] = [];
    const hit: number[] = [];
    let bytes = 0;
    for (let r = 0; r < runs; r++) {
      // A fresh file id per run, so each first request is a real miss.
      const id = randomUUID();
      const blobKey = `${projectId}/${id}`;
      await blobs.put({ key: blobKey, body: Readable.from([jpeg]), contentType: 'image/jpeg', size: jpeg.length });
      const file = {
        projectId,
        id,
        fileName: 'photo.jpg',
        contentType: 'image/jpeg',
        size: jpeg.length,
        imageWidth: 2400,
        imageHeight: 1600,
        blobKey,
        createdAt: new Date(),
      };
      const plan = planTransform({ file, spec: parseImageQuery(new URLSearchParams(query)), accept: '' });
      if (!plan) throw new Error('JPEG is transformable');
      const serve = async () => {
        const began = performance.now();
        const source = sourceReader(blobs, file);
        const resolved = await resolvePlan({ file, plan, limits, source });
        if (!resolved) throw new Error(`'${query}' changes nothing`);
        const out = await transformedImage({ core, blobs, limits, file, resolved, source });
        bytes = (await buffer(out.body)).length;
        return performance.now() - began;
      };
      miss.push(await serve());
      hit.push(await serve());
    }
    rows.push([query, median(miss).toFixed(1), median(hit).toFixed(2), String(bytes)]);
  }
  const header = ['query (2400×1600 JPEG source)', 'miss ms (median)', 'cached ms (median)', 'bytes'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`Image transformations, ${runs} runs each, disk blob store`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  await core.store.close();
} finally {
  await rm(root, { recursive: true, force: true });
}
