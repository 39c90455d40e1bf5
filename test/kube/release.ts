import { execFile as execFileCb } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { chartDir } from '../k8s/k8s-tools.ts';
import type { HostEngines } from './host-engines.ts';

const execFile = promisify(execFileCb);

export const releaseName = 'lectern';
export const domain = 'lectern.test';

/**
 * The test's values for the chart (charts/lectern/values.yaml documents each): the image imported
 * into the node (pullPolicy IfNotPresent: there is no registry), the host engines, the Secret
 * `lectern`, no TLS. One node with 2 cores shared by the whole machine: every pod requests little
 * CPU and memory, one replica each except Delivery (2: a pod deletion or a rollout must leave one
 * serving), whose HPA reacts within a minute (short stabilization windows) so that the scale-up
 * and scale-down both fit in the test. Monitoring stays off in the install: no Prometheus
 * Operator runs, so no ServiceMonitor/PrometheusRule CRDs exist; the test renders both with
 * `monitoringValues` and hands them to its own Prometheus (prometheus.ts).
 */
export function testValues(options: {
  repository: string;
  tag: string;
  engines: HostEngines;
  ingressClassName?: string;
}): Record<string, unknown> {
  const small = (cpu: string) => ({ requests: { cpu, memory: '128Mi' }, limits: { memory: '1Gi' } });
  const fixed = { enabled: false, minReplicas: 1, maxReplicas: 1, targetCPUUtilizationPercentage: 70 };
  return {
    image: { repository: options.repository, tag: options.tag, pullPolicy: 'IfNotPresent' },
    domain,
    managementPublicUrl: `http://manage.${domain}`,
    assetsPublicUrl: `http://assets.${domain}`,
    kafka: { brokers: options.engines.kafkaBrokers, topic: 'lectern.kube-test' },
    s3: { endpoint: options.engines.s3Endpoint, bucket: 'lectern-kube-test' },
    deliveryIndex: { engine: 'opensearch', indexPrefix: 'lectern-kube' },
    management: { replicas: 1, resources: small('50m') },
    delivery: {
      replicas: 2,
      resources: small('100m'),
      autoscaling: {
        enabled: true,
        minReplicas: 2,
        maxReplicas: 4,
        targetCPUUtilizationPercentage: 50,
        behavior: {
          scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 2, periodSeconds: 15 }] },
          scaleDown: { stabilizationWindowSeconds: 30, policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }] },
        },
      },
    },
    indexer: { replicas: 1, resources: small('50m') },
    graphql: { replicas: 1, resources: small('50m'), autoscaling: fixed },
    recommendations: { replicas: 1, resources: small('50m'), autoscaling: fixed },
    // The receiver is a host process on the node's (private) address.
    webhooks: { replicas: 1, resources: small('50m'), config: { webhooksAllowPrivate: true } },
    migrations: { resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '512Mi' } } },
    ingress: { className: options.ingressClassName ?? '', tls: { enabled: false } },
  };
}

/** The extra values that render the ServiceMonitor and PrometheusRule (scraped every 5 s here). */
export const monitoringValues = {
  metrics: { serviceMonitor: { enabled: true, interval: '5s' }, prometheusRule: { enabled: true } },
};

/** The Secret `lectern` the chart reads by default, as `kubectl create secret` arguments. */
export function secretArgs(namespace: string, engines: HostEngines, operatorToken: string): string[] {
  return [
    '-n',
    namespace,
    'create',
    'secret',
    'generic',
    'lectern',
    `--from-literal=database-url=${engines.databaseUrl}`,
    `--from-literal=s3-access-key=${engines.s3AccessKey}`,
    `--from-literal=s3-secret-key=${engines.s3SecretKey}`,
    `--from-literal=operator-token=${operatorToken}`,
    `--from-literal=search-url=${engines.searchUrl}`,
  ];
}

/** Runs helm (LECTERN_HELM) against the cluster; resolves with stdout, throws with stderr. */
export async function helm(binary: string, kubeconfig: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await execFile(binary, [...args], {
      env: { ...process.env, KUBECONFIG: kubeconfig },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const e = error as Error & { stderr?: string };
    throw new Error(`helm ${args.join(' ')} failed: ${e.stderr ?? e.message}`, { cause: error });
  }
}

export { chartDir };

/** An answer read through the Ingress. */
export interface IngressAnswer {
  readonly status: number;
  readonly text: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/**
 * One HTTP request through the Ingress controller's host port, to the API host `<prefix>.<domain>`
 * (node's fetch cannot set a Host header, so node:http).
 */
export function viaIngress(
  ingressUrl: string,
  prefix: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<IngressAnswer> {
  const base = new URL(ingressUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: init.method ?? 'GET',
        headers: { ...init.headers, host: `${prefix}.${domain}` },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${init.method ?? 'GET'} ${prefix}.${domain}${path}`)));
    req.on('error', reject);
    req.end(init.body);
  });
}
