import { join } from 'node:path';
import { httpAnswers, waitUntilReady, type EngineProcess } from '../engines/engine-process.ts';
import type { KubeBinaries } from './binaries.ts';
import { clusterCidr } from './config.ts';
import { serviceRange, writeKubeconfig, type ClusterPki } from './pki.ts';
import { apiGet, startComponent, type ApiClient } from './processes.ts';

/**
 * The control plane as host processes: etcd (Debian's 3.4, plain HTTP on loopback), the API
 * server (on every address, so pods reach it at the node's address too), the controller manager
 * and the scheduler (loopback only). Authorization is Node + RBAC, each component with its own
 * client certificate, as kubeadm sets it up.
 */
export interface ControlPlane {
  readonly processes: EngineProcess[];
  readonly server: string;
  readonly admin: ApiClient;
  readonly adminKubeconfig: string;
  /** Kubeconfigs for the node's components. */
  readonly kubeletKubeconfig: string;
  readonly proxyKubeconfig: string;
}

export async function startControlPlane(options: {
  run: string;
  bin: KubeBinaries;
  pki: ClusterPki;
  nodeIp: string;
  ports: { etcdClient: number; etcdPeer: number; api: number; controllerManager: number; scheduler: number };
  controllerManagerArgs?: readonly string[];
}): Promise<ControlPlane> {
  const { run, bin, pki, nodeIp, ports } = options;
  const processes: EngineProcess[] = [];
  const etcdUrl = `http://127.0.0.1:${ports.etcdClient}`;
  const etcd = startComponent(run, 'etcd', bin.etcd, [
    '--name=lectern-kube',
    `--data-dir=${join(run, 'etcd')}`,
    `--listen-client-urls=${etcdUrl}`,
    `--advertise-client-urls=${etcdUrl}`,
    `--listen-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
    `--initial-cluster=lectern-kube=http://127.0.0.1:${ports.etcdPeer}`,
    '--listen-metrics-urls=',
    '--log-level=warn',
  ]);
  processes.push(etcd);
  await waitUntilReady({
    engine: etcd,
    what: 'etcd',
    timeoutMs: 30_000,
    isReady: () => httpAnswers(`${etcdUrl}/health`),
  });

  const server = `https://${nodeIp}:${ports.api}`;
  const tls = (name: Parameters<ClusterPki['cert']>[0]) => pki.cert(name);
  const apiserver = startComponent(run, 'kube-apiserver', bin.apiserver, [
    `--etcd-servers=${etcdUrl}`,
    '--bind-address=0.0.0.0',
    `--secure-port=${ports.api}`,
    `--advertise-address=${nodeIp}`,
    `--service-cluster-ip-range=${serviceRange}`,
    `--client-ca-file=${pki.caCert}`,
    `--tls-cert-file=${tls('apiserver').cert}`,
    `--tls-private-key-file=${tls('apiserver').key}`,
    `--kubelet-client-certificate=${tls('apiserver-kubelet-client').cert}`,
    `--kubelet-client-key=${tls('apiserver-kubelet-client').key}`,
    '--kubelet-preferred-address-types=InternalIP',
    `--service-account-key-file=${pki.saPub}`,
    `--service-account-signing-key-file=${pki.saKey}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    '--authorization-mode=Node,RBAC',
    '--allow-privileged=true',
    // The aggregation layer, for metrics-server's metrics.k8s.io (a host process: routed to its
    // endpoint's address directly rather than through a ClusterIP).
    `--requestheader-client-ca-file=${pki.frontProxyCaCert}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    `--proxy-client-cert-file=${tls('front-proxy-client').cert}`,
    `--proxy-client-key-file=${tls('front-proxy-client').key}`,
    '--enable-aggregator-routing=true',
    '--profiling=false',
  ]);
  processes.push(apiserver);
  const admin: ApiClient = { server, ca: pki.caCert, ...tls('admin') };
  await waitUntilReady({
    engine: apiserver,
    what: 'kube-apiserver',
    timeoutMs: 90_000,
    isReady: async () => (await apiGet(admin, '/readyz')).status === 200,
  });

  const kubeconfig = (name: Parameters<ClusterPki['cert']>[0]) =>
    writeKubeconfig(pki, name, server, join(pki.dir, `${name}.kubeconfig`));
  const cmKubeconfig = kubeconfig('controller-manager');
  const controllerManager = startComponent(run, 'kube-controller-manager', bin.controllerManager, [
    `--kubeconfig=${cmKubeconfig}`,
    `--authentication-kubeconfig=${cmKubeconfig}`,
    `--authorization-kubeconfig=${cmKubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${ports.controllerManager}`,
    `--cluster-signing-cert-file=${pki.caCert}`,
    `--cluster-signing-key-file=${pki.caKey}`,
    `--root-ca-file=${pki.caCert}`,
    `--service-account-private-key-file=${pki.saKey}`,
    '--use-service-account-credentials=true',
    `--service-cluster-ip-range=${serviceRange}`,
    `--cluster-cidr=${clusterCidr}`,
    '--leader-elect=false',
    ...(options.controllerManagerArgs ?? []),
  ]);
  processes.push(controllerManager);
  const schedulerKubeconfig = kubeconfig('scheduler');
  const scheduler = startComponent(run, 'kube-scheduler', bin.scheduler, [
    `--kubeconfig=${schedulerKubeconfig}`,
    `--authentication-kubeconfig=${schedulerKubeconfig}`,
    `--authorization-kubeconfig=${schedulerKubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${ports.scheduler}`,
    '--leader-elect=false',
  ]);
  processes.push(scheduler);
  // Pods can be created once the controller manager made the namespace's service account.
  await waitUntilReady({
    engine: controllerManager,
    what: 'kube-controller-manager (the default service account)',
    timeoutMs: 60_000,
    isReady: async () => (await apiGet(admin, '/api/v1/namespaces/default/serviceaccounts/default')).status === 200,
  });
  return {
    processes,
    server,
    admin,
    adminKubeconfig: kubeconfig('admin'),
    kubeletKubeconfig: kubeconfig('kubelet'),
    proxyKubeconfig: kubeconfig('kube-proxy'),
  };
}
