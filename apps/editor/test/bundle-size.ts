import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The app's build, as the server serves it. */
export const editorDist = fileURLToPath(new URL('../dist/', import.meta.url));

interface ManifestChunk {
  readonly file: string;
  readonly imports?: readonly string[];
  readonly isEntry?: boolean;
}

export type Manifest = Readonly<Record<string, ManifestChunk>>;

export function readManifest(dist = editorDist): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The files of `key` (index.html: the entry) and of every chunk it imports statically, each once. */
export function initialFiles(manifest: Manifest, key = 'index.html'): string[] {
  const seen = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return [...seen];
}

export interface BundleSizes {
  /** Gzip bytes of the JavaScript loaded before the first screen. */
  readonly initialGzip: number;
  readonly initialFiles: readonly string[];
  /** Gzip bytes of every JavaScript chunk of the build, lazy ones too. */
  readonly totalGzip: number;
  readonly totalRaw: number;
}

export function bundleSizes(dist = editorDist): BundleSizes {
  const manifest = readManifest(dist);
  const gzip = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  const files = initialFiles(manifest);
  const all = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  return {
    initialGzip: files.filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzip(f), 0),
    initialFiles: files,
    totalGzip: all.reduce((sum, f) => sum + gzip(f), 0),
    totalRaw: all.reduce((sum, f) => sum + readFileSync(join(dist, f)).length, 0),
  };
}
