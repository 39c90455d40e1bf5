import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { httpAnswers, waitUntilReady, type EngineProcess } from '../engines/engine-process.ts';
import type { KubeBinaries } from './binaries.ts';
import { apiGet, startComponent, type ApiClient } from './processes.ts';

/** Runs kubectl with the admin kubeconfig; `input` goes to its stdin. */
export type Kubectl = (args: readonly string[], input?: string) => Promise<string>;

/**
 * metrics-server as a host process, registered as the metrics.k8s.io APIService through a
 * selector-less Service whose EndpointSlice names the node's address (the API server routes to
 * the endpoint itself, --enable-aggregator-routing). `kubectl top` and the HPA read it.
 */
export async function startMetricsServer(options: {
  run: string;
  bin: KubeBinaries;
  nodeIp: string;
  port: number;
  kubeconfig: string;
  admin: ApiClient;
  kubectl: Kubectl;
}): Promise<EngineProcess> {
  const { run, bin, nodeIp, port, kubeconfig } = options;
  const certDir = join(run, 'metrics-server');
  mkdirSync(certDir, { recursive: true });
  const server = startComponent(run, 'metrics-server', bin.metricsServer, [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    `--bind-address=${nodeIp}`,
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
    // The kubelet's serving certificate is self-signed (no serving-certificate bootstrap here).
    '--kubelet-insecure-tls',
    '--kubelet-preferred-address-types=InternalIP',
    // The kubelet listens on a free port, not 10250: read it from the node's status.
    '--kubelet-use-node-status-port',
    // Must exceed --kubelet-request-timeout (10 s by default), or metrics-server refuses to start.
    '--metric-resolution=15s',
  ]);
  const objects = [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'metrics-server', namespace: 'kube-system' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: port, protocol: 'TCP' }] },
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'metrics-server-host',
        namespace: 'kube-system',
        labels: {
          'kubernetes.io/service-name': 'metrics-server',
          'endpointslice.kubernetes.io/managed-by': 'lectern-test',
        },
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: [nodeIp], conditions: { ready: true } }],
      ports: [{ name: 'https', port, protocol: 'TCP' }],
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        service: { name: 'metrics-server', namespace: 'kube-system', port: 443 },
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100,
        versionPriority: 100,
      },
    },
  ];
  await options.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  await waitUntilReady({
    engine: server,
    what: 'metrics-server (metrics.k8s.io answering)',
    timeoutMs: 90_000,
    isReady: async () => (await apiGet(options.admin, '/apis/metrics.k8s.io/v1beta1/nodes')).status === 200,
  });
  return server;
}

/**
 * The Ingress controller (test/kube/ingress, ours) as a host process: it serves networking.k8s.io/v1
 * Ingresses of the default IngressClass `lectern` (and those without a class) on `ingressPort` on
 * every host address, by Host header and path, to the ready pod addresses of each backend Service.
 */
export async function startIngress(options: {
  run: string;
  bin: KubeBinaries;
  nodeIp: string;
  kubeconfig: string;
  ingressPort: number;
  healthPort: number;
  kubectl: Kubectl;
}): Promise<EngineProcess> {
  const ingressClass = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name: 'lectern', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
    spec: { controller: 'lectern.local/ingress' },
  };
  await options.kubectl(['apply', '-f', '-'], JSON.stringify(ingressClass));
  const controller = startComponent(options.run, 'ingress', options.bin.ingress, [
    `--kubeconfig=${options.kubeconfig}`,
    `--listen=:${options.ingressPort}`,
    `--health=127.0.0.1:${options.healthPort}`,
    '--ingress-class=lectern',
    '--controller=lectern.local/ingress',
    `--status-ip=${options.nodeIp}`,
  ]);
  await waitUntilReady({
    engine: controller,
    what: 'the Ingress controller',
    timeoutMs: 30_000,
    isReady: () => httpAnswers(`http://127.0.0.1:${options.healthPort}/healthz`),
  });
  return controller;
}
