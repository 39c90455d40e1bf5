import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { signatureHelper } from '@kontent-ai/webhook-helper';
import { createTestDatabase, startTestReceiver, type TestReceiver } from '@lectern/testing';
import { freePorts } from '../engines/index.ts';
import { createProjectWithKeys, type ClusterProject } from '../cluster/admin.ts';
import { startServiceProcess, waitUntilReady, type ServiceProcess } from '../cluster/service-process.ts';
import { chartDir, findK8sTools, helmTemplate, parseManifests, type K8sObject } from './k8s-tools.ts';
import { entryExists, podProcessSpec, unreadEnv, type PodProcessSpec } from './pod-process.ts';

const postgresUrl = inject('postgresUrl');
const kafkaBrokers = inject('kafkaBrokers');
const s3Endpoint = inject('s3Endpoint');
const searchUrl = inject('searchUrl');
const tools = postgresUrl && kafkaBrokers && s3Endpoint && searchUrl ? findK8sTools() : null;
const wait = { 'x-kc-wait-for-loading-new-content': 'true' };
const domain = 'lectern.test';

/** Every service's `config` settings set to the default the values schema documents. */
function schemaDefaults(): Record<string, Record<string, unknown>> {
  const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8')) as {
    properties: Record<string, { properties?: { config?: { properties?: Record<string, { default?: unknown }> } } }>;
  };
  const result: Record<string, Record<string, unknown>> = {};
  for (const [service, s] of Object.entries(schema.properties)) {
    const config = s.properties?.config?.properties;
    if (config) result[service] = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v.default]));
  }
  return result;
}

describe.skipIf(!tools)('the chart’s rendered processes run the cluster shape on this machine', () => {
  const work = mkdtempSync(join(tmpdir(), 'lectern-chart-run-'));
  const started: { spec: PodProcessSpec; process: ServiceProcess }[] = [];
  let objects: K8sObject[];
  let specs: PodProcessSpec[];
  let project: ClusterProject;
  const operatorToken = randomBytes(24).toString('hex');
  const urls = new Map<string, string>();
  const suffix = randomBytes(5).toString('hex');
  let receiver: TestReceiver;

  beforeAll(async () => {
    const names = [
      'management',
      'assets',
      'delivery',
      'preview',
      'indexer',
      'graphql',
      'graphqlPreview',
      'recommendations',
      'webhooks',
    ] as const;
    const free = await freePorts(names.length);
    const ports = Object.fromEntries(names.map((name, i) => [name, free[i]])) as Record<(typeof names)[number], number>;
    const config = schemaDefaults();
    const service = (name: Exclude<keyof typeof ports, 'preview' | 'graphqlPreview' | 'assets'>) => ({
      port: ports[name],
      config: config[name] ?? {},
    });
    const values = {
      domain,
      listenHost: '127.0.0.1',
      managementPublicUrl: `http://127.0.0.1:${ports.management}`,
      assetsPublicUrl: `http://127.0.0.1:${ports.assets}`,
      database: { urlSecret: { name: 'test-database', key: 'uri' } },
      kafka: { brokers: kafkaBrokers, topic: `lectern.chart-test-${suffix}` },
      s3: {
        endpoint: s3Endpoint,
        bucket: `lectern-chart-${suffix}`,
        credentialsSecret: { name: 'test-s3', accessKeyKey: 'ak', secretKeyKey: 'sk' },
      },
      operatorToken: { secret: { name: 'test-operator', key: 'token' } },
      // The default engine (OpenSearch), its URL from a Secret, indices of this run only.
      deliveryIndex: { urlSecret: { name: 'test-search', key: 'url' }, indexPrefix: `lectern-chart-${suffix}` },
      management: { ...service('management'), assetsPort: ports.assets },
      delivery: { ...service('delivery'), previewPort: ports.preview },
      indexer: service('indexer'),
      graphql: { ...service('graphql'), preview: true, previewPort: ports.graphqlPreview },
      recommendations: service('recommendations'),
      // The test receiver listens on loopback, which webhooks refuse by default.
      webhooks: { ...service('webhooks'), config: { ...config['webhooks'], webhooksAllowPrivate: true } },
      metrics: { prometheusRule: { enabled: true }, grafanaDashboard: { enabled: true } },
    };
    const valuesFile = join(work, 'values.yaml');
    writeFileSync(valuesFile, stringify(values));
    objects = parseManifests(helmTemplate(tools!, { valuesFiles: [valuesFile] }));

    const secrets = {
      'test-database': { uri: await createTestDatabase(postgresUrl) },
      'test-s3': { ak: inject('s3AccessKey'), sk: inject('s3SecretKey') },
      'test-operator': { token: operatorToken },
      'test-search': { url: searchUrl },
    };
    const toSpec = (o: K8sObject) =>
      podProcessSpec({ name: o.metadata.name, pod: o.spec.template.spec, secrets, dir: join(work, 'secrets') });
    specs = objects.filter((o) => o.kind === 'Deployment').map(toSpec);

    // The pre-install hook first: the migrations Job runs to completion.
    const job = toSpec(objects.find((o) => o.kind === 'Job')!);
    expect(unreadEnv(job)).toEqual([]);
    const migrate = startServiceProcess({ ...processOptions(job), name: job.name });
    const code = await new Promise<number | null>((resolve) => migrate.child.once('exit', resolve));
    expect({ code, log: migrate.lines.join('\n') }).toMatchObject({
      code: 0,
      log: expect.stringContaining('migrations applied'),
    });

    for (const spec of specs) {
      if (!entryExists(spec)) {
        console.warn(`!!! ${spec.name}: ${spec.entry} is not in this tree; its Deployment is NOT run by this test`);
        continue;
      }
      const unread = unreadEnv(spec);
      if (unread.length > 0) throw new Error(`${spec.name} does not read ${unread.join(', ')} (see its --help)`);
      started.push({ spec, process: startServiceProcess({ ...processOptions(spec), name: spec.name }) });
    }
    await Promise.all(
      started.map(({ spec, process }) => waitUntilReady(process, `http://127.0.0.1:${spec.readiness!.port}`, 120_000)),
    );
    resolveIngress();
    project = await createProjectWithKeys({
      managementUrl: urls.get(`manage.${domain}`)!,
      operatorToken,
      name: 'Chart test',
      userEmail: 'chart@lectern.test',
    });
    receiver = await startTestReceiver();
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.process.stop()));
    await receiver?.close();
    rmSync(work, { recursive: true, force: true });
  });
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() =>
      console.error(started.flatMap((s) => s.process.lines.slice(-30).map((l) => `[${s.spec.name}] ${l}`)).join('\n')),
    );
  });

  function processOptions(spec: PodProcessSpec) {
    const base = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', TMPDIR: tmpdir() };
    return { service: spec.name, entry: spec.entry, args: spec.args, env: { ...base, ...spec.env }, inheritEnv: false };
  }

  /** Each Ingress host's local URL: Ingress backend → Service port → targetPort → the container's port. */
  function resolveIngress() {
    const ingress = objects.find((o) => o.kind === 'Ingress')!;
    for (const rule of ingress.spec.rules as {
      host: string;
      http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] };
    }[]) {
      const backend = rule.http.paths[0]!.backend.service;
      const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === backend.name)!;
      const port = (service.spec.ports as { name: string; targetPort: string }[]).find(
        (p) => p.name === backend.port.name,
      )!;
      // The Deployment whose pods the Service selects.
      const selector = Object.entries(service.spec.selector as Record<string, string>);
      const selected = objects.filter(
        (o) =>
          o.kind === 'Deployment' &&
          selector.every(([k, v]) => (o.spec.template.metadata.labels as Record<string, string>)[k] === v),
      );
      expect(selected.map((o) => o.metadata.name)).toHaveLength(1);
      const deployment = started.find((s) => s.spec.name === selected[0]!.metadata.name);
      if (deployment) urls.set(rule.host, `http://127.0.0.1:${deployment.spec.ports[port.targetPort]}`);
    }
  }

  it('runs all six Deployments', () => {
    const run = started.map((s) => s.spec.name);
    expect(run.sort()).toEqual(
      ['delivery', 'graphql', 'indexer', 'management', 'recommendations', 'webhooks'].map((s) => `lectern-${s}`),
    );
    expect(run).toEqual(specs.filter(entryExists).map((s) => s.name));
  });

  it('answers the liveness and readiness probes of every process', async () => {
    for (const { spec } of started) {
      for (const probe of [spec.liveness!, spec.readiness!]) {
        const response = await fetch(`http://127.0.0.1:${probe.port}${probe.path}`);
        expect(`${spec.name} ${probe.path} ${response.status}`).toBe(`${spec.name} ${probe.path} 200`);
      }
    }
  });

  it('publishes through the manage. host and serves the item from the deliver. and preview-deliver. hosts', async () => {
    const manage = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${urls.get(`manage.${domain}`)}/v2/projects/${project.projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${project.managementKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    };
    await manage('POST', '/types', {
      name: 'Note',
      codename: 'note',
      elements: [{ name: 'Title', codename: 'title', type: 'text' }],
    });
    await manage('POST', '/items', { name: 'Chart note', codename: 'chart_note', type: { codename: 'note' } });
    const variant = '/items/codename/chart_note/variants/codename/default';
    await manage('PUT', variant, { elements: [{ element: { codename: 'title' }, value: 'Through the chart' }] });
    const item = async (host: string, key?: string) => {
      const response = await fetch(`${urls.get(host)}/${project.projectId}/items/chart_note`, {
        headers: { ...wait, ...(key ? { authorization: `Bearer ${key}` } : {}) },
      });
      const body = (await response.json()) as { item?: { elements: { title: { value: string } } } };
      return `${response.status} ${body.item?.elements.title.value}`;
    };
    expect(await item(`preview-deliver.${domain}`, project.previewKey)).toBe('200 Through the chart');
    expect(await item(`deliver.${domain}`)).toBe('404 undefined');
    await manage('PUT', `${variant}/publish`);
    expect(await item(`deliver.${domain}`)).toBe('200 Through the chart');
    // The index is OpenSearch's, under the prefix the values name (deliveryIndex.indexPrefix).
    const aliases = (await (await fetch(`${searchUrl}/_cat/aliases/lectern-chart-${suffix}-*?format=json`)).json()) as {
      alias: string;
    }[];
    expect(aliases.map((a) => a.alias)).toContain(`lectern-chart-${suffix}-${project.projectId}`);
  });

  it('answers GraphQL through the graphql. host and preview GraphQL through preview-graphql.', async () => {
    const query = async (host: string, key?: string) => {
      const response = await fetch(`${urls.get(host)}/${project.projectId}`, {
        method: 'POST',
        headers: { ...wait, 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ query: '{ note(codename: "chart_note") { title } }' }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await query(`graphql.${domain}`)).toEqual({
      status: 200,
      body: { data: { note: { title: 'Through the chart' } } },
    });
    expect(await query(`preview-graphql.${domain}`, project.previewKey)).toEqual({
      status: 200,
      body: { data: { note: { title: 'Through the chart' } } },
    });
  });

  it('recommends a similar published note through the recommend. host (index kept by the indexer)', async () => {
    const manage = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${urls.get(`manage.${domain}`)}/v2/projects/${project.projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${project.managementKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    };
    await manage('POST', '/items', { name: 'Second note', codename: 'second_note', type: { codename: 'note' } });
    const variant = '/items/codename/second_note/variants/codename/default';
    await manage('PUT', variant, { elements: [{ element: { codename: 'title' }, value: 'Also through the chart' }] });
    await manage('PUT', `${variant}/publish`);
    const key = await fetch(`${urls.get(`manage.${domain}`)}/admin/projects/${project.projectId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'recommendations' }),
    });
    const recsKey = String(((await key.json()) as Record<string, unknown>)['api_key']);
    const recommend = async () => {
      const response = await fetch(`${urls.get(`recommend.${domain}`)}/api/v2/recommend/items`, {
        method: 'POST',
        headers: { authorization: `Bearer ${recsKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          visitId: 'chart-visitor',
          currentItemCodename: 'chart_note',
          responseLimit: 3,
          requestedTypeCodename: 'note',
          recommendationSettings: { scenario: 'similar' },
        }),
      });
      return `${response.status} ${JSON.stringify(await response.json())}`;
    };
    let got = await recommend();
    for (let i = 0; i < 100 && got !== '200 [{"codename":"second_note"}]'; i++) {
      await sleep(200);
      got = await recommend();
    }
    expect(got).toBe('200 [{"codename":"second_note"}]');
  });

  it('delivers a signed webhook notification from the webhooks Deployment', async () => {
    const secret = 'chart-webhook-secret';
    const response = await fetch(`${urls.get(`manage.${domain}`)}/v2/projects/${project.projectId}/webhooks-vnext`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Chart hook',
        url: receiver.url,
        secret,
        delivery_triggers: {
          slot: 'published',
          events: 'specific',
          taxonomy: { enabled: true, actions: [{ action: 'created' }] },
        },
      }),
    });
    expect(response.status).toBe(201);
    const taxonomy = await fetch(`${urls.get(`manage.${domain}`)}/v2/projects/${project.projectId}/taxonomies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Chart topics', codename: 'chart_topics', terms: [] }),
    });
    expect(taxonomy.status).toBe(201);
    await receiver.waitFor(1, 30_000);
    const got = receiver.received[0]!;
    expect(
      signatureHelper.isValidSignatureFromString(got.text, secret, got.headers['x-kontent-ai-signature'] as string),
    ).toBe(true);
    expect(got.json['notifications']).toMatchObject([
      { data: { system: { codename: 'chart_topics' } }, message: { action: 'created' } },
    ]);
  });

  it('stores a binary in S3 with the mounted keys and serves it at its asset URL on the assets. host only', async () => {
    const base = `${urls.get(`manage.${domain}`)}/v2/projects/${project.projectId}`;
    const auth = { authorization: `Bearer ${project.managementKey}` };
    const bytes = randomBytes(4096);
    const file = (await (
      await fetch(`${base}/files/chart.bin`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: bytes,
      })
    ).json()) as { id: string };
    const asset = (await (
      await fetch(`${base}/assets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ file_reference: { id: file.id, type: 'internal' }, title: 'Chart' }),
      })
    ).json()) as { url: string };
    const assetsHost = urls.get(`assets.${domain}`)!;
    expect(asset.url.startsWith(`${assetsHost}/assets/`)).toBe(true);
    const served = await fetch(asset.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; /);
    // The manage. host (the console's origin) only redirects there.
    const path = new URL(asset.url).pathname;
    const redirect = await fetch(`${urls.get(`manage.${domain}`)}${path}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(asset.url);
  });

  it('exports every metric the alert rules and the dashboard query (webhooks’ only when it runs)', async () => {
    const exported = new Set<string>();
    for (const { spec } of started) {
      const text = await (await fetch(`http://127.0.0.1:${spec.readiness!.port}/metrics`)).text();
      for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        exported.add(m[1]!);
        if (m[2] === 'histogram') for (const s of ['_bucket', '_count', '_sum']) exported.add(`${m[1]}${s}`);
      }
    }
    const rule = objects.find((o) => o.kind === 'PrometheusRule')!;
    const dashboard = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-dashboard')) as
      (K8sObject & { data: Record<string, string> }) | undefined;
    const queried = new Set(
      `${JSON.stringify(rule.spec)} ${dashboard!.data['lectern.json']}`.match(/\blectern_[a-z0-9_]+/g) ?? [],
    );
    const webhooksRun = started.some((s) => s.spec.name.endsWith('-webhooks'));
    const missing = [...queried].filter((m) => !exported.has(m) && (webhooksRun || !m.startsWith('lectern_webhook_')));
    expect(missing).toEqual([]);
    expect(queried.size).toBeGreaterThan(8);
  });

  it('reports relay, consumer and index lag, all reaching 0', async () => {
    const metric = async (name: string) => {
      for (const { spec } of started) {
        const text = await (await fetch(`http://127.0.0.1:${spec.readiness!.port}/metrics`)).text();
        const value = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[2];
        if (value !== undefined) return value;
      }
      return undefined;
    };
    for (const name of [
      'lectern_outbox_relay_lag_events',
      'lectern_event_consumer_lag_events',
      'lectern_index_watermark_lag_events',
    ]) {
      let value = await metric(name);
      for (let i = 0; i < 50 && value !== '0'; i++) {
        await sleep(200);
        value = await metric(name);
      }
      expect(`${name} ${value}`).toBe(`${name} 0`);
    }
  });

  it('every process drains and exits 0 on SIGTERM', async () => {
    const codes = await Promise.all(started.map((s) => s.process.stop()));
    expect(codes.every((c) => c === 0)).toBe(true);
  });
});
