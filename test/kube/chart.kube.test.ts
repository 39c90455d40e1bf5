// The acceptance scenario of issue 30's "A real cluster": the chart installed with the image built
// here on a one-node Kubernetes built here (cluster.ts), against PostgreSQL, Kafka, MinIO and
// OpenSearch as host processes on the node's address (host-engines.ts). The steps share one
// cluster and one release and run in order; each prints the figures the closing note quotes.

import { execFile as execFileCb } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { startTestReceiver, type TestReceiver } from '@lectern/testing';
import { findK8sTools, parseManifests, type K8sObject } from '../k8s/k8s-tools.ts';
import { isEngineRequired } from '../engines/engine.ts';
import { kubeSkipReason } from './binaries.ts';
import { startKubeCluster, type KubeCluster } from './cluster.ts';
import { saveImage } from './image.ts';
import { startHostEngines, type HostEngines } from './host-engines.ts';
import { describeLoad, startLoad } from './load.ts';
import { findPrometheus, startPrometheus, type RunningPrometheus } from './prometheus.ts';
import { chartDir, helm, monitoringValues, releaseName, secretArgs, testValues, viaIngress } from './release.ts';
import { createProject, manage, poll, type KubeProject } from './scenario.ts';
import { hpaSeries, kubeJson, releaseLeftovers, servingPods, type KubeList } from './kube-objects.ts';

const execFile = promisify(execFileCb);
// The image to install: built from this tree by the kube project's global setup (setup-docker.ts).
const imageRef = inject('lecternImage');
const skipReason = kubeSkipReason(isEngineRequired);
if (skipReason !== null) console.warn(`!!! SKIPPING the chart on a real cluster: ${skipReason}`);
const tools = imageRef && skipReason === null ? findK8sTools() : null;
const prometheusBinary = findPrometheus();
const namespace = 'lectern';
const note = 'Through the cluster';

describe.skipIf(!tools)('the chart on a real Kubernetes', () => {
  const work = mkdtempSync(join(tmpdir(), 'lectern-kubetest-'));
  const [repository, firstTag] = imageRef.split(/:(?=[^:]+$)/) as [string, string];
  const secondTag = `${firstTag}-b`;
  const operatorToken = randomBytes(24).toString('hex');
  let cluster: KubeCluster;
  let engines: HostEngines;
  let receiver: TestReceiver;
  let project: KubeProject;
  let ingressUrl: string;
  let prometheus: RunningPrometheus | undefined;
  const kubectl = (...args: string[]) => cluster.kubectl(args);
  const valuesFile = (tag: string, extra: Record<string, unknown> = {}) => {
    const file = join(work, `values-${tag}-${Object.keys(extra).length}.yaml`);
    const values = testValues({
      repository,
      tag,
      engines,
      ingressClassName: process.env['LECTERN_KUBE_INGRESS_CLASS'],
    });
    writeFileSync(file, stringify({ ...values, ...extra }));
    return file;
  };
  const helmRun = (...args: string[]) => helm(tools!.helm, cluster.kubeconfig, args);
  const deliveryLoad = (concurrency: number) =>
    startLoad({
      url: `${ingressUrl}/${project.projectId}/items/kube_note`,
      host: 'deliver.lectern.test',
      expect: note,
      concurrency,
    });

  beforeAll(async () => {
    cluster = await startKubeCluster();
    ingressUrl = `http://${cluster.nodeIp}:${cluster.ingressPort}`;
    // Two tags of one image, both imported into the node (no registry): the upgrade rolls to the second.
    await execFile('docker', ['tag', imageRef, `${repository}:${secondTag}`]);
    for (const tag of [firstTag, secondTag]) {
      const tar = join(work, `image-${tag}.tar`);
      await saveImage(`${repository}:${tag}`, tar);
      await cluster.importImage(tar);
      rmSync(tar);
    }
    engines = await startHostEngines(cluster.nodeIp);
    receiver = await startTestReceiver({ host: cluster.nodeIp });
    await kubectl('create', 'namespace', namespace);
    await kubectl(...secretArgs(namespace, engines, operatorToken));
  }, 900_000);

  afterAll(async () => {
    await prometheus?.stop();
    await receiver?.close();
    await cluster?.stop();
    await engines?.stop();
    await execFile('docker', ['rmi', `${repository}:${secondTag}`]).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }, 300_000);

  it('installs: the migrations Job completes first, then every Deployment becomes Ready through its probes', async () => {
    const began = Date.now();
    await helmRun(
      'install',
      releaseName,
      chartDir,
      '-n',
      namespace,
      '-f',
      valuesFile(firstTag),
      '--wait',
      '--timeout',
      '10m',
    );
    console.log(`[kube] helm install --wait: ${Math.round((Date.now() - began) / 1000)} s`);
    // The hook Job is deleted once it succeeded (hook-delete-policy); its events stay.
    const events = await kubeJson<KubeList>(cluster, ['-n', namespace, 'get', 'events']);
    const completed = events.items.find(
      (e) =>
        e['involvedObject'].kind === 'Job' &&
        e['involvedObject'].name === `${releaseName}-migrate` &&
        e['reason'] === 'Completed',
    );
    expect(completed, 'the migrations Job completed').toBeDefined();
    const deployments = await kubeJson<KubeList>(cluster, ['-n', namespace, 'get', 'deployments']);
    expect(deployments.items.map((d) => d.metadata.name).sort()).toEqual(
      ['delivery', 'graphql', 'indexer', 'management', 'recommendations', 'webhooks'].map((s) => `${releaseName}-${s}`),
    );
    const jobDone = Date.parse(completed!['lastTimestamp'] ?? completed!['eventTime']);
    for (const d of deployments.items) {
      // Timestamps have second resolution: created in the same second as the Job's end at the earliest.
      expect(Date.parse(d.metadata.creationTimestamp), d.metadata.name).toBeGreaterThanOrEqual(jobDone);
      const container = d.spec.template.spec.containers[0];
      expect(container.readinessProbe?.httpGet?.path, d.metadata.name).toBe('/readyz');
      expect(container.livenessProbe?.httpGet?.path, d.metadata.name).toBeDefined();
      expect(d.status.readyReplicas, d.metadata.name).toBe(d.status.replicas);
    }
  }, 900_000);

  it('publishes through manage. and serves the item from deliver., graphql. and recommend., and notifies the webhook receiver', async () => {
    project = await createProject(ingressUrl, operatorToken);
    const hook = await manage(ingressUrl, project, 'POST', '/webhooks-vnext', {
      name: 'Kube hook',
      url: receiver.url,
      secret: 'kube-webhook-secret',
      delivery_triggers: {
        slot: 'published',
        events: 'specific',
        content_item: { enabled: true, actions: [{ action: 'published' }] },
      },
    });
    expect(hook['id']).toBeDefined();
    await manage(ingressUrl, project, 'POST', '/types', {
      name: 'Note',
      codename: 'note',
      elements: [{ name: 'Title', codename: 'title', type: 'text' }],
    });
    for (const [codename, title] of [
      ['kube_note', note],
      ['kube_other', 'Also through the cluster'],
    ] as const) {
      await manage(ingressUrl, project, 'POST', '/items', { name: codename, codename, type: { codename: 'note' } });
      const variant = `/items/codename/${codename}/variants/codename/default`;
      await manage(ingressUrl, project, 'PUT', variant, {
        elements: [{ element: { codename: 'title' }, value: title }],
      });
      await manage(ingressUrl, project, 'PUT', `${variant}/publish`);
    }
    const wait = { 'x-kc-wait-for-loading-new-content': 'true' };
    const delivered = await viaIngress(ingressUrl, 'deliver', `/${project.projectId}/items/kube_note`, {
      headers: wait,
    });
    expect(`${delivered.status} ${delivered.text.includes(note)}`).toBe('200 true');
    const graphql = await viaIngress(ingressUrl, 'graphql', `/${project.projectId}`, {
      method: 'POST',
      headers: { ...wait, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ note(codename: "kube_note") { title } }' }),
    });
    expect({ status: graphql.status, body: JSON.parse(graphql.text) as unknown }).toEqual({
      status: 200,
      body: { data: { note: { title: note } } },
    });
    const recsKey = await viaIngress(ingressUrl, 'manage', `/admin/projects/${project.projectId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'recommendations' }),
    });
    const key = String((JSON.parse(recsKey.text) as Record<string, unknown>)['api_key']);
    const recommend = async () => {
      const answer = await viaIngress(ingressUrl, 'recommend', '/api/v2/recommend/items', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          visitId: 'kube-visitor',
          currentItemCodename: 'kube_note',
          responseLimit: 3,
          requestedTypeCodename: 'note',
          recommendationSettings: { scenario: 'similar' },
        }),
      });
      return `${answer.status} ${answer.text}`;
    };
    expect(await poll(recommend, '200 [{"codename":"kube_other"}]', 60_000)).toBe('200 [{"codename":"kube_other"}]');
    // One POST per notification or a batch: what counts is both items' publish arriving.
    const notified = async () =>
      receiver.received
        .flatMap((r) =>
          (r.json['notifications'] as { data: { system: { codename: string } } }[]).map((n) => n.data.system.codename),
        )
        .sort();
    expect(await poll(notified, ['kube_note', 'kube_other'], 60_000)).toEqual(['kube_note', 'kube_other']);
  }, 900_000);

  it('helm upgrade to a second image tag rolls every Deployment with zero failed requests under Delivery load', async () => {
    const load = deliveryLoad(4);
    await sleep(5_000);
    const began = Date.now();
    await helmRun(
      'upgrade',
      releaseName,
      chartDir,
      '-n',
      namespace,
      '-f',
      valuesFile(secondTag),
      '--wait',
      '--timeout',
      '10m',
    );
    const rolled = Math.round((Date.now() - began) / 1000);
    await sleep(5_000);
    const result = await load.stop();
    console.log(
      `[kube] helm upgrade to ${secondTag}: rolled in ${rolled} s under Delivery load: ${describeLoad(result)}`,
    );
    const pods = await servingPods(cluster, namespace, `app.kubernetes.io/instance=${releaseName}`);
    const images = new Set(pods.map((p) => p.spec.containers[0].image));
    expect([...images]).toEqual([`${repository}:${secondTag}`]);
    // Every Deployment rolled: its template names the new tag and all its replicas are updated.
    const deployments = await kubeJson<KubeList>(cluster, ['-n', namespace, 'get', 'deployments']);
    expect(
      deployments.items.map(
        (d) =>
          `${d.metadata.name} ${d.spec.template.spec.containers[0].image} ${d.status.updatedReplicas}/${d.status.replicas}`,
      ),
    ).toEqual(
      deployments.items.map(
        (d) => `${d.metadata.name} ${repository}:${secondTag} ${d.status.replicas}/${d.status.replicas}`,
      ),
    );
    expect(result.sent).toBeGreaterThan(100);
    expect(result.failures).toEqual({});
  }, 900_000);

  it('deleting a Delivery pod under load fails zero requests', async () => {
    const load = deliveryLoad(4);
    let victim: string | undefined;
    let result: Awaited<ReturnType<typeof load.stop>>;
    // The load stops whatever happens: left running, it would keep the HPA of the next test up.
    try {
      await sleep(5_000);
      // Listed now, not before the load: a pod of the previous rollout may still be terminating,
      // and one the HPA scales away may go meanwhile (then it was deleted under load all the same).
      const serving = await servingPods(cluster, namespace, 'app.kubernetes.io/component=delivery');
      expect(serving.length).toBeGreaterThanOrEqual(2);
      victim = serving[0]!.metadata.name;
      await kubectl('-n', namespace, 'delete', 'pod', victim, '--wait=true', '--ignore-not-found=true');
      await kubectl('-n', namespace, 'rollout', 'status', `deployment/${releaseName}-delivery`, '--timeout=300s');
      await sleep(5_000);
    } finally {
      result = await load.stop();
    }
    console.log(`[kube] Delivery pod ${victim ?? '(none)'} deleted under load: ${describeLoad(result)}`);
    expect(result.sent).toBeGreaterThan(100);
    expect(result.failures).toEqual({});
  }, 900_000);

  it('the HPA scales Delivery up under CPU load and back down', async () => {
    const deployment = `${releaseName}-delivery`;
    const series: string[] = [];
    const began = Date.now();
    const sample = async () => {
      const s = await hpaSeries(cluster, namespace, deployment);
      series.push(`${Math.round((Date.now() - began) / 1000)} s: ${s.replicas} replicas (CPU ${s.cpu ?? '?'} %)`);
      return s.replicas;
    };
    const load = deliveryLoad(16);
    let most = await sample();
    for (let i = 0; i < 60 && most <= 2; i++) {
      await sleep(5_000);
      most = Math.max(most, await sample());
    }
    const result = await load.stop();
    let now = await sample();
    for (let i = 0; i < 60 && now > 2; i++) {
      await sleep(5_000);
      now = await sample();
    }
    console.log(`[kube] HPA under load (${describeLoad(result)}), then idle:\n  ${series.join('\n  ')}`);
    expect(most).toBeGreaterThan(2);
    expect(now).toBe(2);
  }, 900_000);

  it.skipIf(!prometheusBinary)(
    'Prometheus scrapes every ServiceMonitor target up and evaluates every PrometheusRule expression',
    async () => {
      // Rendered, not installed: no Prometheus Operator (and so no monitoring CRDs) runs in this cluster.
      const rendered = parseManifests(
        await helmRun(
          'template',
          releaseName,
          chartDir,
          '--kube-version',
          cluster.version,
          '-n',
          namespace,
          '-f',
          valuesFile(secondTag),
          '-f',
          writeMonitoring(),
        ),
      );
      const one = (kind: string) => rendered.find((o) => o.kind === kind) as K8sObject;
      prometheus = await startPrometheus({
        binary: prometheusBinary,
        kubeconfig: cluster.kubeconfig,
        namespace,
        serviceMonitor: one('ServiceMonitor'),
        prometheusRule: one('PrometheusRule'),
        evaluationInterval: '5s',
      });
      const ready = (await servingPods(cluster, namespace, `app.kubernetes.io/instance=${releaseName}`)).length;
      const health = async () => {
        const targets = await prometheus!.targets();
        return `${targets.filter((t) => t.health === 'up').length} of ${targets.length} up`;
      };
      expect(await poll(health, `${ready} of ${ready} up`, 90_000, 2_000)).toBe(`${ready} of ${ready} up`);
      const rules = async () =>
        (await prometheus!.rules()).filter((r) => !r.evaluated || r.health !== 'ok' || r.lastError);
      expect(await poll(rules, [], 60_000, 2_000)).toEqual([]);
      const all = await prometheus.rules();
      const jobs = new Set((await prometheus.targets()).map((t) => t.job));
      console.log(
        `[kube] Prometheus: ${ready} targets up (${[...jobs].sort().join(', ')}); ${all.length} rules evaluated without error`,
      );
      expect(all.length).toBeGreaterThan(5);
      for (const group of (one('PrometheusRule').spec as { groups: { rules: { expr: string }[] }[] }).groups) {
        for (const rule of group.rules) await prometheus.query(rule.expr);
      }
    },
    300_000,
  );

  it('helm uninstall leaves nothing of the release behind', async () => {
    await helmRun('uninstall', releaseName, '-n', namespace, '--wait', '--timeout', '5m');
    const left = await poll(() => releaseLeftovers(cluster, namespace, releaseName), [], 120_000, 2_000);
    expect(left).toEqual([]);
    expect((await helmRun('list', '-n', namespace, '-a', '-q')).trim()).toBe('');
  }, 900_000);

  function writeMonitoring(): string {
    const file = join(work, 'monitoring.yaml');
    writeFileSync(file, stringify(monitoringValues));
    return file;
  }
});
