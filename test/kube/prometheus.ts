import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { httpAnswers, spawnEngine, stopEngine, waitUntilReady } from '../engines/engine-process.ts';
import { freePort } from '../engines/postgres.ts';
import type { K8sObject } from '../k8s/k8s-tools.ts';
import { kubeBinaries } from './binaries.ts';

/**
 * A Prometheus server (built from its Go module by scripts/lib/kube.sh) run as a host process
 * against the cluster, standing in for the Prometheus Operator: its scrape job is what the
 * operator would derive from the chart's ServiceMonitor, its rule file is the PrometheusRule's
 * groups. Targets are found with kubernetes_sd_configs (role endpointslice) through the cluster's
 * kubeconfig; pod IPs are reachable from the host on this single-node cluster.
 */
export interface RunningPrometheus {
  readonly url: string;
  /** Active targets: scrape URL, health, last error. */
  targets(): Promise<{ scrapeUrl: string; health: string; lastError: string; job: string }[]>;
  /** Every rule of the loaded groups: name, health, last error, evaluated yet. */
  rules(): Promise<{ group: string; name: string; health: string; lastError: string; evaluated: boolean }[]>;
  /** An instant query; throws with Prometheus' error when it fails. */
  query(expr: string): Promise<unknown[]>;
  stop(): Promise<void>;
}

/**
 * The Prometheus binary scripts/lib/kube.sh built (bin/prometheus beside the cluster's programs),
 * or LECTERN_PROMETHEUS; '' when it is not there.
 */
export function findPrometheus(): string {
  const binary = process.env['LECTERN_PROMETHEUS'] ?? kubeBinaries().prometheus;
  return existsSync(binary) ? binary : '';
}

interface ServiceMonitorSpec {
  selector: { matchLabels: Record<string, string> };
  endpoints: { port: string; path?: string; interval?: string }[];
}

/** The label name Kubernetes SD gives a Service label (`app.kubernetes.io/name` → `…_app_kubernetes_io_name`). */
const serviceLabel = (name: string) => `__meta_kubernetes_service_label_${name.replace(/[^a-zA-Z0-9_]/g, '_')}`;

/**
 * The scrape jobs the Prometheus Operator generates for a ServiceMonitor, reduced to what this
 * chart's uses: endpoints of Services in `namespace` whose labels match the selector, on the
 * named port, at the path and interval given; `job` is the Service's name, as the operator sets it
 * (the alert rules group by it), with `namespace`, `service` and `pod` target labels.
 */
export function scrapeConfigs(monitor: K8sObject, namespace: string, kubeconfig: string): unknown[] {
  const spec = monitor.spec as unknown as ServiceMonitorSpec;
  return spec.endpoints.map((endpoint, i) => ({
    job_name: `serviceMonitor/${namespace}/${monitor.metadata.name}/${i}`,
    metrics_path: endpoint.path ?? '/metrics',
    scrape_interval: endpoint.interval ?? '30s',
    kubernetes_sd_configs: [{ role: 'endpointslice', kubeconfig_file: kubeconfig, namespaces: { names: [namespace] } }],
    relabel_configs: [
      ...Object.entries(spec.selector.matchLabels).map(([label, value]) => ({
        source_labels: [serviceLabel(label)],
        regex: value,
        action: 'keep',
      })),
      { source_labels: ['__meta_kubernetes_endpointslice_port_name'], regex: endpoint.port, action: 'keep' },
      { source_labels: ['__meta_kubernetes_endpointslice_endpoint_conditions_ready'], regex: 'true', action: 'keep' },
      { source_labels: ['__meta_kubernetes_namespace'], target_label: 'namespace' },
      { source_labels: ['__meta_kubernetes_service_name'], target_label: 'service' },
      { source_labels: ['__meta_kubernetes_service_name'], target_label: 'job' },
      { source_labels: ['__meta_kubernetes_pod_name'], target_label: 'pod' },
    ],
  }));
}

/** Starts Prometheus on 127.0.0.1 with the ServiceMonitor's scrape jobs and the PrometheusRule's groups. */
export async function startPrometheus(options: {
  binary: string;
  kubeconfig: string;
  namespace: string;
  serviceMonitor: K8sObject;
  prometheusRule: K8sObject;
  evaluationInterval: string;
}): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-prometheus-'));
  const rules = join(dir, 'rules.yaml');
  writeFileSync(rules, stringify({ groups: (options.prometheusRule.spec as { groups: unknown[] }).groups }));
  const config = join(dir, 'prometheus.yaml');
  writeFileSync(
    config,
    stringify({
      global: { evaluation_interval: options.evaluationInterval },
      rule_files: [rules],
      scrape_configs: scrapeConfigs(options.serviceMonitor, options.namespace, options.kubeconfig),
    }),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const engine = spawnEngine({
    command: options.binary,
    args: [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    log: join(dir, 'prometheus.log'),
    cwd: dir,
  });
  await waitUntilReady({ engine, what: 'Prometheus', timeoutMs: 60_000, isReady: () => httpAnswers(`${url}/-/ready`) });
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}/api/v1/${path}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error}`);
    return body.data;
  };
  return {
    url,
    async targets() {
      const data = await api<{
        activeTargets: { scrapeUrl: string; health: string; lastError: string; labels: Record<string, string> }[];
      }>('targets?state=active');
      return data.activeTargets.map((t) => ({ ...t, job: t.labels['job'] ?? '' }));
    },
    async rules() {
      const data = await api<{
        groups: {
          name: string;
          rules: { name: string; health: string; lastError?: string; lastEvaluation: string }[];
        }[];
      }>('rules');
      return data.groups.flatMap((g) =>
        g.rules.map((r) => ({
          group: g.name,
          name: r.name,
          health: r.health,
          lastError: r.lastError ?? '',
          evaluated: !r.lastEvaluation.startsWith('0001-'),
        })),
      );
    },
    async query(expr) {
      return (await api<{ result: unknown[] }>(`query?query=${encodeURIComponent(expr)}`)).result;
    },
    async stop() {
      await stopEngine(engine);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
