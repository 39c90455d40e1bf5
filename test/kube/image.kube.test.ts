import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../cluster/service-process.ts';
import type { RunningEngine } from '../engines/engine.ts';
import { startKafka } from '../engines/kafka.ts';
import { s3TestCredentials, startMinio } from '../engines/minio.ts';
import { freePorts, startPostgres } from '../engines/postgres.ts';
import { saveImage } from './image.ts';
import { docker, hardened, removeContainers, runToCompletion, statusOf, waitFor200 } from './docker.ts';

// Lectern's image, built from this tree on the base made here (setup-docker.ts), run as the chart
// runs it: one image, the service chosen by its command, uid 10001, read-only root with /tmp
// writable, no capabilities. The engines are host processes on 127.0.0.1 and the containers use
// the host's network (--network host), so the services reach them as they would in a pod beside them.
const image = inject('lecternImage');
const prefix = `lectern-image-test-${process.pid}`;
const started: string[] = [];
const engines: RunningEngine[] = [];

/** The sha256 of each model file, as scripts/lib/models.sh pins them. */
function pinnedModelFiles(): Map<string, string> {
  const script = readFileSync(join(repoRoot, 'scripts', 'lib', 'models.sh'), 'utf8');
  return new Map([...script.matchAll(/^ {2}"(\S+) ([0-9a-f]{64})"$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** Runs `sh -c script` in the image, hardened; its output (a non-zero exit fails the test). */
async function inImage(script: string): Promise<string> {
  const { code, output } = await runToCompletion([...hardened, '--entrypoint', 'sh', image, '-c', script]);
  expect(code, output).toBe(0);
  return output;
}

describe.skipIf(image === '')(`Lectern's image (${image})`, () => {
  afterAll(async () => {
    await removeContainers(started);
    await Promise.all(engines.map((e) => e.stop()));
  });

  it('runs as uid 10001 on a read-only root filesystem, writing only /tmp', async () => {
    const output = await inImage(
      'id -u; id -g; touch /app/x 2>/dev/null && echo app-writable; touch /x 2>/dev/null && echo root-writable; ' +
        'touch /tmp/x && echo tmp-writable',
    );
    expect(output.trim().split('\n')).toEqual(['10001', '10001', 'tmp-writable']);
  });

  it('holds the editor build, the embedding model as pinned, and no devDependencies or tests', async () => {
    const index = await inImage('cat /app/apps/editor/dist/index.html');
    const entry = /<script type="module" crossorigin src="\/app\/(assets\/[^"]+\.js)">/.exec(index)?.[1];
    expect(entry, index).toBeDefined();
    await inImage(`test -s /app/apps/editor/dist/${entry}`);

    const pinned = pinnedModelFiles();
    expect(pinned.size).toBe(5);
    const sums = await inImage(`cd "$LECTERN_RECS_MODEL_DIR" && sha256sum ${[...pinned.keys()].join(' ')}`);
    const found = new Map(
      sums
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/).reverse() as [string, string]),
    );
    expect(found).toEqual(pinned);

    const packages = (await inImage('ls /app/node_modules/.pnpm')).split('\n');
    expect(packages.some((p) => p.startsWith('fastify@'))).toBe(true);
    expect(
      packages.filter((p) => /^(vitest|typescript|eslint|prettier|vite|@kontent-ai|playwright)[@+]/.test(p)),
    ).toEqual([]);
    const tests = await inImage("find /app -name '*.test.ts' -not -path '*/node_modules/*'");
    expect(tests).toBe('');
  });

  describe('every service starts from it and becomes ready', () => {
    let env: Record<string, string> = {};
    const startTimes: { service: string; readyMs: number }[] = [];

    beforeAll(async () => {
      const [postgres, kafka, minio] = await Promise.all([startPostgres(), startKafka(), startMinio()]);
      engines.push(postgres, kafka, minio);
      env = {
        LECTERN_DATABASE_URL: postgres.endpoint,
        LECTERN_HOST: '127.0.0.1',
        LECTERN_KAFKA_BROKERS: kafka.endpoint,
        LECTERN_KAFKA_TOPIC: 'lectern-image-test',
        LECTERN_DELIVERY_INDEX: 'sql',
        LECTERN_LOG_LEVEL: 'warn',
      };
    }, 300_000);

    afterAll(() => {
      console.log(
        `\nstart time of each service in ${image} (docker run → /readyz 200, one at a time):\n` +
          startTimes.map((t) => `  ${t.service.padEnd(16)} ${String(t.readyMs).padStart(6)} ms`).join('\n'),
      );
    });

    /** `docker run -d` of one service (its entry as the command), then /healthz and /readyz polled. */
    async function startService(service: string, ports: Record<string, number>, extra: Record<string, string> = {}) {
      const name = `${prefix}-${service}`;
      const envArgs = Object.entries({ ...env, ...extra }).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
      const began = Date.now();
      started.push(name);
      await docker([
        'run',
        '--detach',
        '--name',
        name,
        ...hardened,
        '--network',
        'host',
        ...envArgs,
        image,
        entry(service),
      ]);
      const base = `http://127.0.0.1:${Object.values(ports)[0]}`;
      const readyMs = await waitFor200(name, `${base}/readyz`, began);
      startTimes.push({ service, readyMs });
      expect(await statusOf(`${base}/healthz`)).toBe(200);
      return base;
    }
    const entry = (service: string) => `services/${service}/src/main.ts`;

    it('migrate runs the migrations to completion (exit 0)', async () => {
      const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
      const { code, output } = await runToCompletion(
        [...hardened, '--network', 'host', ...envArgs, image, 'services/management/src/migrate.ts'],
        180_000,
      );
      expect(code, output).toBe(0);
    });

    it('management (PostgreSQL, Kafka, S3) serves the console and the editor app', async () => {
      const [port, assets] = await freePorts(2);
      const minio = engines[2]!;
      const base = await startService(
        'management',
        { port },
        {
          LECTERN_PORT: String(port),
          LECTERN_ASSETS_PORT: String(assets),
          LECTERN_OPERATOR_TOKEN: 'image-test-operator-token-0123456789',
          LECTERN_S3_ENDPOINT: minio.endpoint,
          LECTERN_S3_BUCKET: 'lectern-image-test',
          LECTERN_S3_ACCESS_KEY: s3TestCredentials.accessKey,
          LECTERN_S3_SECRET_KEY: s3TestCredentials.secretKey,
        },
      );
      const app = await fetch(`${base}/app/`);
      expect(app.status).toBe(200);
      expect(await app.text()).toContain('<script type="module"');
      expect((await fetch(`${base}/console/`, { redirect: 'manual' })).status).toBeLessThan(400);
    });

    it('delivery, graphql and webhooks', async () => {
      const [delivery, preview, graphql, webhooks] = await freePorts(4);
      await startService(
        'delivery',
        { delivery },
        { LECTERN_DELIVERY_PORT: String(delivery), LECTERN_PREVIEW_PORT: String(preview) },
      );
      await startService('graphql', { graphql }, { LECTERN_GRAPHQL_PORT: String(graphql) });
      await startService('webhooks', { webhooks }, { LECTERN_PORT: String(webhooks) });
    });

    it('recommendations and the indexer load the embedding model shipped in the image (onnx)', async () => {
      const [recommendations, indexer] = await freePorts(2);
      const onnx = { LECTERN_RECS_EMBEDDING: 'onnx' };
      await startService('recommendations', { recommendations }, { ...onnx, LECTERN_PORT: String(recommendations) });
      await startService(
        'indexer',
        { indexer },
        { ...onnx, LECTERN_PORT: String(indexer), LECTERN_ASSETS_BASE_URL: 'http://127.0.0.1:1/assets' },
      );
    });
  });

  it('saves as a docker-save tarball of this image (for containerd), at most 250 MB compressed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-image-save-'));
    try {
      const file = join(dir, 'lectern.tar');
      await saveImage(image, file);
      const manifest = JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json'], { encoding: 'utf8' })) as {
        RepoTags: string[];
      }[];
      expect(manifest.map((m) => m.RepoTags)).toEqual([[image]]);
      const bytes = Number(execFileSync('sh', ['-c', 'gzip -c "$0" | wc -c', file], { encoding: 'utf8' }));
      const unpacked = Number(
        execFileSync('docker', ['image', 'inspect', '--format', '{{.Size}}', image], { encoding: 'utf8' }),
      );
      console.log(
        `\n${image}: ${(bytes / 1e6).toFixed(1)} MB compressed (docker save | gzip), ` +
          `${(unpacked / 1e6).toFixed(1)} MB unpacked (goal: ≤ 250 MB compressed)`,
      );
      expect(bytes).toBeGreaterThan(50e6);
      expect(bytes).toBeLessThanOrEqual(250e6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
