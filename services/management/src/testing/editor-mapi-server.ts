/**
 * A Management API (and its assets origin) over an in-memory PGlite store, one project and its
 * management key, as a process of its own: `node services/management/src/testing/editor-mapi-server.ts` prints one
 * JSON line `{projectId, projectUrl, key}` when it listens and stops on SIGTERM or when its
 * stdin closes. The editor's component tests (happy-dom, apps/editor/test/real-mapi.ts) talk to
 * it over HTTP, so the server's code runs in Node as in production, not through the test's
 * browser-like module transform.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFsBlobStore } from '@lectern/blob-fs';
import { createLogger, createProcessMetrics, createReadiness, listen } from '@lectern/http-kit';
import { buildManagementApp, createManagementServer } from '../app.ts';
import { buildAssetsApp, createAssetsServer } from '../assets-app.ts';
import { openTestCore, seedProject } from '@lectern/testing';

const core = await openTestCore();
const blobDir = await mkdtemp(join(tmpdir(), 'lectern-editor-blobs-'));
const blobs = openFsBlobStore({ root: blobDir });
const shared = {
  metrics: createProcessMetrics(),
  readiness: createReadiness([() => core.store.ping()]),
  logger: createLogger({ level: 'silent' }),
};
const assets = await listen(createAssetsServer(buildAssetsApp({ ...shared, core, blobs })), {
  host: '127.0.0.1',
  port: 0,
  graceMs: 0,
});
const app = buildManagementApp({
  ...shared,
  core,
  tasks: null,
  operatorToken: null,
  blobs,
  assetsOrigin: { publicUrl: null, listenerUrl: assets.url },
  rateLimits: { perSecond: 1_000_000, perMinute: 1_000_000, perHour: 1_000_000 },
});
const server = await listen(createManagementServer(app), { host: '127.0.0.1', port: 0, graceMs: 0 });
const { projectId, keys } = await seedProject(core, ['management']);

let isStopping = false;
async function stop() {
  if (isStopping) return;
  isStopping = true;
  await server.close();
  await assets.close();
  await core.store.close();
  await rm(blobDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.stdout.write(
  `${JSON.stringify({ projectId, projectUrl: `${server.url}/v2/projects/${projectId}`, key: keys.management?.value })}\n`,
);
