// The Prometheus configuration the kube tests derive from the chart's ServiceMonitor and
// PrometheusRule (test/kube/prometheus.ts), checked offline by promtool: the real-cluster test
// runs it, this one fails first and faster when the chart or the derivation changes shape.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { scrapeConfigs } from '../kube/prometheus.ts';
import { findK8sTools, helmTemplate, parseManifests, run } from './k8s-tools.ts';

const tools = findK8sTools();

describe.skipIf(!tools)('the Prometheus configuration derived from the ServiceMonitor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-prom-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is accepted by promtool, keeps the selected Services’ port and path, and names the job after the Service', () => {
    const objects = parseManifests(
      helmTemplate(tools!, {
        set: {
          'kafka.brokers': 'kafka:9092',
          's3.endpoint': 'http://minio:9000',
          'metrics.serviceMonitor.enabled': 'true',
          'metrics.serviceMonitor.interval': '15s',
          'metrics.prometheusRule.enabled': 'true',
        },
      }),
    );
    const monitor = objects.find((o) => o.kind === 'ServiceMonitor')!;
    const rule = objects.find((o) => o.kind === 'PrometheusRule')!;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
    const rules = join(dir, 'rules.yaml');
    writeFileSync(rules, stringify({ groups: (rule.spec as { groups: unknown[] }).groups }));
    const jobs = scrapeConfigs(monitor, 'lectern', kubeconfig) as {
      metrics_path: string;
      scrape_interval: string;
      relabel_configs: { source_labels?: string[]; regex?: string; action?: string; target_label?: string }[];
    }[];
    const config = join(dir, 'prometheus.yaml');
    writeFileSync(config, stringify({ rule_files: [rules], scrape_configs: jobs }));
    expect(run(tools!.promtool, ['check', 'config', config])).toContain('SUCCESS');

    expect(jobs).toHaveLength(1);
    const job = jobs[0]!;
    expect([job.metrics_path, job.scrape_interval]).toEqual(['/metrics', '15s']);
    const kept = job.relabel_configs.filter((r) => r.action === 'keep').map((r) => [r.source_labels?.[0], r.regex]);
    expect(kept).toEqual([
      ['__meta_kubernetes_service_label_app_kubernetes_io_name', 'lectern'],
      ['__meta_kubernetes_service_label_app_kubernetes_io_instance', 'lectern'],
      ['__meta_kubernetes_endpointslice_port_name', 'http'],
      ['__meta_kubernetes_endpointslice_endpoint_conditions_ready', 'true'],
    ]);
    const jobLabel = job.relabel_configs.find((r) => r.target_label === 'job');
    expect(jobLabel?.source_labels).toEqual(['__meta_kubernetes_service_name']);
  });
});
