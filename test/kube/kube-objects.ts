import type { KubeCluster } from './cluster.ts';

/** A Kubernetes object as `kubectl get -o json` prints it, loosely typed. */
export interface KubeObject {
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly creationTimestamp: string;
    readonly deletionTimestamp?: string;
    readonly labels?: Record<string, string>;
  };
  readonly spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly status?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly [field: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface KubeList {
  readonly items: KubeObject[];
}

/** `kubectl <args> -o json`, parsed. */
export async function kubeJson<T>(cluster: KubeCluster, args: readonly string[]): Promise<T> {
  return JSON.parse(await cluster.kubectl([...args, '-o', 'json'])) as T;
}

/** The pods of `namespace` matching the label `selector` that run and are not being deleted. */
export async function servingPods(cluster: KubeCluster, namespace: string, selector: string): Promise<KubeObject[]> {
  const pods = await kubeJson<KubeList>(cluster, ['-n', namespace, 'get', 'pods', '-l', selector]);
  return pods.items.filter((p) => p.status.phase === 'Running' && !p.metadata.deletionTimestamp);
}

/** A Deployment's replica count and its HPA's current CPU utilization (percent of requests). */
export async function hpaSeries(
  cluster: KubeCluster,
  namespace: string,
  name: string,
): Promise<{ replicas: number; cpu: number | undefined }> {
  const hpa = await kubeJson<KubeObject>(cluster, ['-n', namespace, 'get', 'hpa', name]);
  const deployment = await kubeJson<KubeObject>(cluster, ['-n', namespace, 'get', 'deployment', name]);
  const metrics = (hpa.status?.currentMetrics ?? []) as {
    resource?: { name: string; current?: { averageUtilization?: number } };
  }[];
  return {
    replicas: Number(deployment.status?.readyReplicas ?? 0),
    cpu: metrics.find((m) => m.resource?.name === 'cpu')?.resource?.current?.averageUtilization,
  };
}

/** Every kind a release of the chart creates (hooks included), and what its pods leave. */
const releaseKinds = [
  'deployments',
  'replicasets',
  'pods',
  'services',
  'endpointslices',
  'ingresses',
  'horizontalpodautoscalers',
  'poddisruptionbudgets',
  'jobs',
  'configmaps',
  'secrets',
  'serviceaccounts',
];

/**
 * What is left of a release in its namespace: `Kind/name` of every object labelled with its
 * instance, plus Helm's own release Secrets (`sh.helm.release.v1.<release>.*`) and any
 * EndpointSlice of its Services (those carry the Service's labels only when it sets them).
 */
export async function releaseLeftovers(cluster: KubeCluster, namespace: string, release: string): Promise<string[]> {
  const labelled = await kubeJson<KubeList>(cluster, [
    '-n',
    namespace,
    'get',
    releaseKinds.join(','),
    '-l',
    `app.kubernetes.io/instance=${release}`,
  ]);
  const secrets = await kubeJson<KubeList>(cluster, ['-n', namespace, 'get', 'secrets']);
  const slices = await kubeJson<KubeList>(cluster, ['-n', namespace, 'get', 'endpointslices']);
  return [
    ...labelled.items.map((o) => `${o.kind}/${o.metadata.name}`),
    ...secrets.items
      .filter((s) => s.metadata.name.startsWith(`sh.helm.release.v1.${release}.`))
      .map((s) => `Secret/${s.metadata.name}`),
    ...slices.items
      .filter((s) => s.metadata.labels?.['kubernetes.io/service-name']?.startsWith(`${release}-`))
      .map((s) => `EndpointSlice/${s.metadata.name}`),
  ].filter((v, i, all) => all.indexOf(v) === i);
}
