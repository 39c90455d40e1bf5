import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { alertRuleTests } from './alert-tests.ts';
import { renderPlainManifests } from './plain-manifests.ts';
import {
  chartDir,
  dockerfileEntries,
  findK8sTools,
  helmTemplate,
  kubeconformAll,
  parseManifests,
  run,
  type K8sObject,
  type K8sTools,
  type ObjectCheck,
} from './k8s-tools.ts';

const tools = findK8sTools();
const examplesDir = join(chartDir, 'examples');
const examples = readdirSync(examplesDir).filter((f) => f.endsWith('.yaml'));
/** The two values the chart cannot default: where Kafka and S3 are. */
const required = { 'kafka.brokers': 'kafka:9092', 's3.endpoint': 'http://minio:9000' };
/** Operator CRDs have no schema in the Kubernetes package; their content is checked below (promtool). */
const crdKinds = ['ServiceMonitor', 'PrometheusRule'];
const work = mkdtempSync(join(tmpdir(), 'lectern-chart-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const names = (objects: K8sObject[]) => objects.map((o) => o.metadata.name).sort();

/** helm's error for a render expected to fail. */
function renderError(t: K8sTools, set: Record<string, string>): string {
  try {
    helmTemplate(t, { set });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`helm template with ${JSON.stringify(set)} succeeded; a failure was expected`);
}

describe.skipIf(!tools)('charts/lectern, validated offline', () => {
  const t = tools!;
  const basePath = join(chartDir, '..', '..', 'k8s', 'base', 'lectern.yaml');
  /** Every rendering kubeconform checks, by label: the defaults, each example, k8s/base, the overlay. */
  const rendered: Record<string, string> = {};
  let checks: Map<string, ObjectCheck[]>;

  beforeAll(() => {
    rendered['defaults'] = helmTemplate(t, { set: required });
    for (const example of examples) {
      rendered[`example-${example}`] = helmTemplate(t, { valuesFiles: [join(examplesDir, example)] });
    }
    rendered['k8s-base'] = readFileSync(basePath, 'utf8');
    rendered['k8s-overlay'] = run(t.kustomize, ['build', join(chartDir, '..', '..', 'k8s', 'overlays', 'example')]);
    checks = kubeconformAll(t, rendered, { dir: work, skipKinds: crdKinds });
  }, 300_000);

  /** kubeconform -strict on every pinned Kubernetes version: every object valid but the CRDs, skipped. */
  function expectValid(label: string) {
    const objects = parseManifests(rendered[label]!);
    const results = checks.get(label)!;
    const problems = results.filter((r) => r.status !== 'valid' && r.status !== 'skipped');
    expect(problems).toEqual([]);
    for (const version of t.kubernetesVersions) {
      const mine = results.filter((r) => r.version === version);
      expect(mine.filter((r) => r.status === 'valid')).toHaveLength(
        objects.filter((o) => !crdKinds.includes(o.kind)).length,
      );
      // kubeconform checks in parallel: its results come in no fixed order.
      expect(
        mine
          .filter((r) => r.status === 'skipped')
          .map((r) => r.object.split('/')[0])
          .sort(),
      ).toEqual(
        objects
          .filter((o) => crdKinds.includes(o.kind))
          .map((o) => o.kind)
          .sort(),
      );
    }
  }

  it('passes helm lint with the default values and with every example values file', () => {
    const sets = Object.entries(required).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
    const lint = (extra: string[]) => run(t.helm, ['lint', chartDir, '--strict', ...extra]);
    expect(lint(sets)).toContain('0 chart(s) failed');
    for (const example of examples) {
      expect(lint(['--values', join(examplesDir, example)])).toContain('0 chart(s) failed');
    }
  });

  it('renders, with the default values, a Deployment, Service and PDB per service, HPAs for the APIs, the Ingress and the migrations hook; kubeconform -strict finds every object valid', () => {
    const objects = parseManifests(rendered['defaults']!);
    const services = ['delivery', 'graphql', 'indexer', 'management', 'recommendations', 'webhooks'];
    expect(names(byKind(objects, 'Deployment'))).toEqual(services.map((s) => `lectern-${s}`));
    expect(names(byKind(objects, 'Service'))).toEqual(services.map((s) => `lectern-${s}`));
    expect(names(byKind(objects, 'PodDisruptionBudget'))).toEqual(services.map((s) => `lectern-${s}`));
    expect(names(byKind(objects, 'HorizontalPodAutoscaler'))).toEqual([
      'lectern-delivery',
      'lectern-graphql',
      'lectern-recommendations',
    ]);
    const [job] = byKind(objects, 'Job');
    expect(job?.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(job?.spec.template.spec.containers[0].args).toEqual(['services/management/src/migrate.ts']);
    expect(byKind(objects, 'ServiceMonitor')).toEqual([]);

    const [ingress] = byKind(objects, 'Ingress');
    const routes = ingress!.spec.rules.map(
      (r: { host: string; http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }) =>
        `${r.host} -> ${r.http.paths[0]!.backend.service.name}:${r.http.paths[0]!.backend.service.port.name}`,
    );
    expect(routes.sort()).toEqual([
      // Asset binaries on a host of their own: the management pods' second port, not the console's origin.
      // The editor app: the management pods serve it at /app/.
      'app.lectern.example.com -> lectern-management:http',
      'assets.lectern.example.com -> lectern-management:assets',
      'deliver.lectern.example.com -> lectern-delivery:http',
      'graphql.lectern.example.com -> lectern-graphql:http',
      'manage.lectern.example.com -> lectern-management:http',
      'preview-deliver.lectern.example.com -> lectern-delivery:preview',
      'recommend.lectern.example.com -> lectern-recommendations:http',
    ]);
    expect(ingress!.spec.tls).toEqual([
      {
        secretName: 'lectern-tls',
        hosts: expect.arrayContaining(['manage.lectern.example.com', 'assets.lectern.example.com']),
      },
    ]);
    // Asset URLs (Management answers, Delivery documents) name the assets host.
    expect(envOf(objects, 'management')).toMatchObject({
      LECTERN_PORT: '4400',
      LECTERN_ASSETS_PORT: '4410',
      LECTERN_ASSETS_PUBLIC_URL: 'https://assets.lectern.example.com',
    });
    expect(envOf(objects, 'indexer')).toMatchObject({
      LECTERN_ASSETS_BASE_URL: 'https://assets.lectern.example.com/assets',
    });

    // Every container runs an entry the image has a target for.
    const entries = dockerfileEntries();
    for (const o of [...byKind(objects, 'Deployment'), job!]) {
      expect(entries).toContain(o.spec.template.spec.containers[0].args[0]);
    }
    for (const deployment of byKind(objects, 'Deployment')) {
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
      expect(pod.topologySpreadConstraints.length).toBeGreaterThan(0);
      for (const c of pod.containers) {
        expect(c.securityContext, deployment.metadata.name).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(c.readinessProbe.httpGet.path).toBe('/readyz');
        expect(c.livenessProbe.httpGet.path).toBe('/healthz');
        // A stuck event loop never answers: the probe times out, and the pod restarts within ~30 s.
        const liveness = c.livenessProbe as { periodSeconds: number; timeoutSeconds: number; failureThreshold: number };
        expect(liveness.timeoutSeconds).toBeGreaterThan(0);
        expect(liveness.periodSeconds * liveness.failureThreshold + liveness.timeoutSeconds).toBeLessThanOrEqual(30);
        // The kubelet's SIGKILL comes after the process's own drain (grace) and its 5 s margin.
        const grace = (c.env as { name: string; value?: string }[]).find((e) => e.name === 'LECTERN_SHUTDOWN_GRACE_MS');
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(Number(grace?.value) / 1000 + 5);
        expect(c.resources.requests).toBeDefined();
        // Secrets only as files: no plain secret value in the environment.
        const env = (c.env as { name: string }[]).map((e) => e.name);
        expect(env).toContain('LECTERN_DATABASE_URL_FILE');
        expect(env.filter((n) => /DATABASE_URL$|SECRET_KEY$|ACCESS_KEY$|TOKEN$/.test(n))).toEqual([]);
      }
    }
    // Every Service, PDB and HPA reaches exactly its own Deployment's pods.
    const podsOf = (labels: Record<string, string>) =>
      byKind(objects, 'Deployment')
        .filter((d) => Object.entries(labels).every(([k, v]) => d.spec.template.metadata.labels[k] === v))
        .map((d) => d.metadata.name);
    for (const service of byKind(objects, 'Service')) {
      expect(podsOf(service.spec.selector)).toEqual([service.metadata.name]);
      const ports = byKind(objects, 'Deployment').find((d) => d.metadata.name === service.metadata.name)!.spec.template
        .spec.containers[0].ports as { name: string }[];
      for (const p of service.spec.ports as { targetPort: string }[]) {
        expect(ports.map((c) => c.name)).toContain(p.targetPort);
      }
    }
    for (const pdb of byKind(objects, 'PodDisruptionBudget')) {
      expect(podsOf(pdb.spec.selector.matchLabels)).toEqual([pdb.metadata.name]);
    }
    for (const hpa of byKind(objects, 'HorizontalPodAutoscaler')) {
      const target = byKind(objects, 'Deployment').find((d) => d.metadata.name === hpa.spec.scaleTargetRef.name);
      expect(target?.spec.replicas).toBeUndefined(); // the HPA owns the replica count
    }
    expectValid('defaults');
  });

  it.each(examples)('renders examples/%s into objects kubeconform -strict finds valid', (example) => {
    expect(byKind(parseManifests(rendered[`example-${example}`]!), 'Deployment').length).toBeGreaterThan(0);
    expectValid(`example-${example}`);
  });

  it('with monitoring on: a ServiceMonitor, a dashboard ConfigMap, and alert rules that promtool accepts', () => {
    const objects = parseManifests(rendered['example-production.yaml']!);
    expect(byKind(objects, 'ServiceMonitor')[0]?.spec.endpoints).toEqual([
      { port: 'http', path: '/metrics', interval: '30s' },
    ]);
    const dashboard = byKind(objects, 'ConfigMap').find((c) => c.metadata.name === 'lectern-dashboard') as
      (K8sObject & { data: Record<string, string> }) | undefined;
    const panels = (JSON.parse(dashboard!.data['lectern.json']!) as { panels: { title: string }[] }).panels;
    expect(panels.length).toBeGreaterThan(5);

    const [rule] = byKind(objects, 'PrometheusRule');
    const alerts = rule!.spec.groups.flatMap((g: { rules: { alert: string }[] }) => g.rules.map((r) => r.alert));
    expect(alerts.sort()).toEqual([
      'LecternEventConsumerLag',
      'LecternHighErrorRate',
      'LecternIndexLag',
      'LecternOutboxRelayBehind',
      'LecternWebhookDeliverySlow',
      'LecternWebhookQueueStalled',
    ]);
    const rulesFile = join(work, 'rules.yaml');
    writeFileSync(rulesFile, stringify(rule!.spec));
    expect(run(t.promtool, ['check', 'rules', rulesFile])).toContain('SUCCESS: 6 rules found');
    // Each alert fires on the services' metrics once its threshold held for 10m, not before, not
    // for another namespace.
    const testsFile = join(work, 'rules.test.yaml');
    writeFileSync(testsFile, stringify(alertRuleTests(rulesFile)));
    expect(run(t.promtool, ['test', 'rules', testsFile])).toContain('SUCCESS');
  });

  it('fails at install on a misspelt value, a wrongly typed one, or a missing engine address', () => {
    expect(renderError(t, { ...required, 'delivery.replicaCount': '3' })).toMatch(/replicaCount/);
    expect(renderError(t, { ...required, 'delivery.config.deliveryCacheMB': '64' })).toMatch(/deliveryCacheMB/);
    expect(renderError(t, { ...required, 'delivery.config.deliveryCacheMib': 'lots' })).toMatch(/deliveryCacheMib/);
    expect(renderError(t, { ...required, 'kafka.brokers': 'kafka' })).toMatch(/kafka\.brokers|brokers/);
    expect(renderError(t, { 's3.endpoint': 'http://minio:9000' })).toMatch(/kafka\.brokers/);
    expect(renderError(t, { 'kafka.brokers': 'kafka:9092' })).toMatch(/s3\.endpoint/);
  });

  it('turns a service off everywhere, and takes TLS from cert-manager', () => {
    const objects = parseManifests(
      helmTemplate(t, {
        set: {
          ...required,
          'graphql.enabled': 'false',
          'ingress.tls.certManager.enabled': 'true',
          'ingress.tls.certManager.issuer': 'letsencrypt-prod',
        },
      }),
    );
    expect(objects.filter((o) => o.metadata.name === 'lectern-graphql')).toEqual([]);
    const [ingress] = byKind(objects, 'Ingress');
    expect(ingress!.metadata.annotations).toEqual({ 'cert-manager.io/cluster-issuer': 'letsencrypt-prod' });
    expect(JSON.stringify(ingress!.spec.rules)).not.toContain('graphql.');
  });

  /** A Deployment's env as name → value. */
  const envOf = (objects: K8sObject[], name: string) =>
    Object.fromEntries(
      (
        byKind(objects, 'Deployment').find((d) => d.metadata.name === `lectern-${name}`)!.spec.template.spec
          .containers[0].env as { name: string; value: string }[]
      ).map((e) => [e.name, e.value]),
    );
  const searchEnv = (env: Record<string, string>) => Object.keys(env).filter((n) => /SEARCH|DELIVERY_INDEX/.test(n));

  it('passes the delivery index (examples/eck.yaml) to delivery, indexer and graphql, and its engine to recommendations, its URL from the Secret as a file', () => {
    const objects = parseManifests(rendered['example-eck.yaml']!);
    expect(envOf(objects, 'recommendations')).toMatchObject({
      LECTERN_DELIVERY_INDEX: 'elasticsearch',
      LECTERN_SEARCH_URL_FILE: '/var/run/secrets/lectern/search/url',
    });
    for (const name of ['delivery', 'indexer', 'graphql']) {
      expect(envOf(objects, name)).toMatchObject({
        LECTERN_DELIVERY_INDEX: 'elasticsearch',
        LECTERN_SEARCH_URL_FILE: '/var/run/secrets/lectern/search/url',
        LECTERN_SEARCH_INDEX_PREFIX: 'lectern-delivery',
      });
      const pod = byKind(objects, 'Deployment').find((d) => d.metadata.name === `lectern-${name}`)!.spec.template.spec;
      expect(pod.volumes.find((v: { name: string }) => v.name === 'search').secret).toEqual({
        secretName: 'lectern-search',
        items: [{ key: 'url', path: 'url' }],
      });
    }
    for (const name of ['management', 'webhooks']) {
      expect(searchEnv(envOf(objects, name))).toEqual([]);
    }
    // The default install reads OpenSearch, its URL from the shared Secret.
    const defaults = parseManifests(rendered['defaults']!);
    expect(envOf(defaults, 'graphql')).toMatchObject({ LECTERN_DELIVERY_INDEX: 'opensearch' });
  });

  it('keeps the delivery index in PostgreSQL with one value (deliveryIndex.engine=sql): no search Secret mounted', () => {
    const objects = parseManifests(helmTemplate(t, { set: { ...required, 'deliveryIndex.engine': 'sql' } }));
    for (const name of ['delivery', 'indexer', 'graphql', 'recommendations']) {
      expect(searchEnv(envOf(objects, name))).toEqual(['LECTERN_DELIVERY_INDEX']);
      expect(envOf(objects, name)['LECTERN_DELIVERY_INDEX']).toBe('sql');
    }
    expect(JSON.stringify(objects)).not.toContain('search-url');
  });

  it('fails at render on a delivery index combination that cannot work, saying which value to change', () => {
    expect(renderError(t, { ...required, 'deliveryIndex.engine': 'solr' })).toMatch(/deliveryIndex\/engine|engine/);
    expect(renderError(t, { ...required, 'deliveryIndex.urlSecret.name': '' })).toMatch(
      /deliveryIndex\.urlSecret\.name: engine opensearch needs the Secret .*deliveryIndex\.engine=sql/,
    );
    expect(renderError(t, { ...required, 'deliveryIndex.engine': 'sql', 'deliveryIndex.indexPrefix': 'x' })).toMatch(
      /deliveryIndex\.indexPrefix/,
    );
    expect(renderError(t, { ...required, 'graphql.config.graphqlMaxDepth': 'deep' })).toMatch(/graphqlMaxDepth/);
    expect(renderError(t, { ...required, 'webhooks.config.webhookAllowPrivate': 'true' })).toMatch(
      /webhookAllowPrivate/,
    );
  });

  it('serves preview GraphQL on its own port and host when graphql.preview is on; mounts the SMTP Secret when named', () => {
    const objects = parseManifests(
      helmTemplate(t, { set: { ...required, 'graphql.preview': 'true', 'webhooks.smtp.urlSecret.name': 'mail' } }),
    );
    expect(envOf(objects, 'graphql')).toMatchObject({
      LECTERN_GRAPHQL_PORT: '4403',
      LECTERN_GRAPHQL_PREVIEW: 'true',
      LECTERN_GRAPHQL_PREVIEW_PORT: '4408',
    });
    const service = byKind(objects, 'Service').find((o) => o.metadata.name === 'lectern-graphql')!;
    expect(service.spec.ports.map((p: { name: string; port: number }) => `${p.name}:${p.port}`)).toEqual([
      'http:4403',
      'preview:4408',
    ]);
    const [ingress] = byKind(objects, 'Ingress');
    const rule = ingress!.spec.rules.find((r: { host: string }) => r.host === 'preview-graphql.lectern.example.com');
    expect(rule.http.paths[0].backend.service).toEqual({ name: 'lectern-graphql', port: { name: 'preview' } });
    expect(envOf(objects, 'webhooks')).toMatchObject({
      LECTERN_SMTP_URL_FILE: '/var/run/secrets/lectern/smtp/url',
    });
    // Off by default: no preview listener, no SMTP.
    const defaults = parseManifests(rendered['defaults']!);
    expect(envOf(defaults, 'graphql')['LECTERN_GRAPHQL_PREVIEW']).toBeUndefined();
    expect(envOf(defaults, 'webhooks')['LECTERN_SMTP_URL_FILE']).toBeUndefined();
  });

  it('keeps k8s/base in step with the chart (regenerate: node scripts/k8s-manifests.ts)', () => {
    expect(rendered['k8s-base']).toBe(renderPlainManifests(t));
    expectValid('k8s-base');
  });

  it('builds the example overlay of k8s/ with kustomize into valid objects with its namespace, image, hosts and engines', () => {
    const objects = parseManifests(rendered['k8s-overlay']!);
    expect(objects.length).toBe(parseManifests(rendered['k8s-base']!).length);
    expect(objects.every((o) => (o.metadata as { namespace?: string }).namespace === 'lectern')).toBe(true);
    const management = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'lectern-management')!;
    const container = management.spec.template.spec.containers[0];
    expect(container.image).toBe('registry.example.com/lectern:0.1.0');
    const env = Object.fromEntries((container.env as { name: string; value: string }[]).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({
      LECTERN_KAFKA_BROKERS: 'lectern-kafka-kafka-bootstrap.kafka.svc:9092',
      LECTERN_S3_ENDPOINT: 'http://minio.minio.svc.cluster.local',
      LECTERN_DATABASE_URL_FILE: '/var/run/secrets/lectern/database/url',
    });
    const ingress = objects.find((o) => o.kind === 'Ingress')!;
    expect(ingress.spec.rules.map((r: { host: string }) => r.host).sort()).toEqual(
      ['app', 'assets', 'deliver', 'graphql', 'manage', 'preview-deliver', 'recommend'].map(
        (h) => `${h}.content.example.com`,
      ),
    );
    expectValid('k8s-overlay');
  });
});
