import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeSkipReason } from './binaries.ts';
import { startKubeCluster, type KubeCluster } from './cluster.ts';
import { staticImageTarball } from './static-image.ts';
import { echoWorkload } from './workload.ts';

/**
 * The test cluster itself, as the chart's tests will use it: a workload from an image built here
 * runs; a Service and an Ingress reach it by Host header; a pod reaches a host process at the node
 * address and a ClusterIP Service; `kubectl top` answers; an HPA reads CPU metrics and scales up
 * under load; stop leaves nothing on the machine.
 */
const required = process.env['CI'] === 'true' || process.env['LECTERN_REQUIRE_ENGINES'] === 'true';
const skipReason = kubeSkipReason(required);
if (skipReason !== null) console.warn(`!!! SKIPPING the kube cluster tests: ${skipReason}`);

describe.skipIf(skipReason !== null)('a single-node Kubernetes built here', () => {
  let cluster: KubeCluster;
  let hostServer: Server;
  let work: string;

  beforeAll(async () => {
    cluster = await startKubeCluster();
    work = mkdtempSync(join(tmpdir(), 'lectern-kube-test-'));
    execFileSync('go', ['build', '-trimpath', '-o', join(work, 'echo'), './echo'], {
      cwd: join(import.meta.dirname, 'images'),
      env: { ...process.env, CGO_ENABLED: '0', GOWORK: 'off' },
    });
    const tarball = staticImageTarball({
      ref: 'lectern.local/echo:1',
      binaries: [join(work, 'echo')],
      entrypoint: ['/echo'],
      out: join(work, 'echo.tar'),
    });
    expect(await cluster.importImage(tarball)).toContain('lectern.local/echo:1');
    hostServer = createServer((_req, res) => res.end('from the host'));
    await new Promise<void>((resolve) => hostServer.listen(0, cluster.nodeIp, resolve));
  }, 600_000);

  afterAll(async () => {
    hostServer?.close();
    await cluster?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 180_000);

  // Node's fetch drops a Host header (a forbidden header name), so node:http.
  const viaIngress = (host: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: cluster.ingressPort, path, headers: { host }, timeout: 10_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timeout: ${host}${path}`)));
      req.on('error', reject);
      req.end();
    });

  it('runs a Deployment from an image built here and imported, never pulled', async () => {
    await cluster.kubectl(['apply', '-f', '-'], JSON.stringify(echoWorkload('echo.lectern.test')));
    await cluster.kubectl(['rollout', 'status', 'deployment/echo', '--timeout=180s']);
    const pods = JSON.parse(await cluster.kubectl(['get', 'pods', '-l', 'app=echo', '-o', 'json'])) as {
      items: { status: { phase: string; containerStatuses: { image: string; ready: boolean }[] } }[];
    };
    expect(pods.items).toHaveLength(1);
    expect(pods.items[0]!.status.phase).toBe('Running');
    expect(pods.items[0]!.status.containerStatuses[0]).toMatchObject({ image: 'lectern.local/echo:1', ready: true });
    const version = JSON.parse(await cluster.kubectl(['version', '-o', 'json'])) as {
      serverVersion: { gitVersion: string };
    };
    expect(version.serverVersion.gitVersion).toBe(cluster.version);
  }, 240_000);

  it('routes Ingress by Host header to the Service, and 404s an unknown host', async () => {
    let last = { status: 0, body: '' };
    for (let i = 0; i < 60 && last.status !== 200; i++) {
      last = await viaIngress('echo.lectern.test', '/hello').catch((e: unknown) => ({ status: -1, body: String(e) }));
      if (last.status !== 200) await sleep(1_000);
    }
    expect(last).toMatchObject({
      status: 200,
      body: expect.stringMatching(/^echo echo-[a-z0-9]+-[a-z0-9]+ \/hello$/) as unknown,
    });
    expect((await viaIngress('other.lectern.test', '/hello')).status).toBe(404);
  }, 120_000);

  it('lets a pod reach a host process at the node address and a ClusterIP Service', async () => {
    const port = (hostServer.address() as { port: number }).port;
    const fromHost = await viaIngress(
      'echo.lectern.test',
      `/fetch?url=${encodeURIComponent(`http://${cluster.nodeIp}:${port}/`)}`,
    );
    expect(fromHost).toEqual({ status: 200, body: '200 from the host' });
    const clusterIp = (await cluster.kubectl(['get', 'service', 'echo', '-o', 'jsonpath={.spec.clusterIP}'])).trim();
    // kube-proxy programs the Service a moment after the pod turns ready (until then it rejects).
    let fromService = { status: 0, body: '' };
    for (let i = 0; i < 30 && !fromService.body.startsWith('200 echo'); i++) {
      if (i > 0) await sleep(1_000);
      fromService = await viaIngress(
        'echo.lectern.test',
        `/fetch?url=${encodeURIComponent(`http://${clusterIp}/via-service`)}`,
      );
    }
    expect(fromService.body).toMatch(/^200 echo echo-\S+ \/via-service$/);
  }, 60_000);

  it('answers kubectl top pod from metrics-server', async () => {
    let rows: string[] = [];
    for (let i = 0; i < 90 && rows.length === 0; i++) {
      const out = await cluster.kubectl(['top', 'pod', '-l', 'app=echo', '--no-headers']).catch(() => '');
      rows = out.split('\n').filter((l) => /^echo-\S+\s+\d+m\s+\d+Mi$/.test(l.trim()));
      if (rows.length === 0) await sleep(2_000);
    }
    expect(rows).toHaveLength(1);
  }, 240_000);

  it('scales the Deployment up with an HPA reading CPU metrics under load', async () => {
    await cluster.kubectl(['autoscale', 'deployment', 'echo', '--cpu=50%', '--min=1', '--max=3']);
    let load = true;
    const burners = Array.from({ length: 2 }, async () => {
      while (load) await viaIngress('echo.lectern.test', '/burn?ms=300').catch(() => undefined);
    });
    const seen: string[] = [];
    let desired = 0;
    try {
      for (let i = 0; i < 60 && desired < 2; i++) {
        await sleep(3_000);
        const hpa = JSON.parse(await cluster.kubectl(['get', 'hpa', 'echo', '-o', 'json'])) as {
          status: {
            desiredReplicas?: number;
            currentMetrics?: { resource?: { current?: { averageUtilization?: number } } }[];
          };
        };
        const utilization = hpa.status.currentMetrics?.[0]?.resource?.current?.averageUtilization;
        desired = hpa.status.desiredReplicas ?? 0;
        seen.push(`${i * 3}s: ${utilization ?? '?'}% -> ${desired}`);
      }
    } finally {
      load = false;
      await Promise.all(burners);
    }
    console.log(`[kube] HPA (utilization -> desired replicas): ${seen.join(', ')}`);
    expect(desired).toBeGreaterThanOrEqual(2);
  }, 300_000);

  it('stops, leaving no process, mount, network namespace, link, iptables rule or cgroup behind', async () => {
    await cluster.stop();
    expect(cluster.leftovers()).toEqual({
      processes: [],
      mounts: [],
      netns: [],
      links: [],
      iptables: [],
      cgroups: [],
      logLinks: [],
      sysctls: [],
      runDir: false,
    });
  }, 180_000);
});
