import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Configuration files of the test cluster's node: containerd (an instance of our own, never the
 * docker daemon's), the CNI bridge network, the kubelet and kube-proxy. Every path is under the
 * run directory so that one `rm -rf` (after the unmounts in cleanup.ts) removes a run.
 */
export interface NodeLayout {
  readonly run: string;
  readonly nodeName: string;
  readonly nodeIp: string;
  readonly containerdSocket: string;
  readonly podLogs: string;
  readonly kubeletRoot: string;
  readonly kubeletPort: number;
  readonly kubeletHealthzPort: number;
  readonly proxyHealthzPort: number;
  readonly proxyMetricsPort: number;
  readonly sandboxImage: string;
}

/** Pods get addresses from this range on the bridge below; the node is its gateway. */
export const podRange = '10.244.0.0/24';
export const clusterCidr = '10.244.0.0/16';
/** The CNI network's name: it tags the iptables rules the bridge and portmap plugins add. */
export const cniNetwork = 'lectern-kube';
export const bridgeName = 'lectern0';

export function nodeLayout(run: string, nodeName: string, nodeIp: string, ports: number[]): NodeLayout {
  const [kubeletPort, kubeletHealthzPort, proxyHealthzPort, proxyMetricsPort] = ports;
  return {
    run,
    nodeName,
    nodeIp,
    containerdSocket: join(run, 'containerd', 'containerd.sock'),
    podLogs: join(run, 'pod-logs'),
    kubeletRoot: join(run, 'kubelet'),
    kubeletPort: kubeletPort!,
    kubeletHealthzPort: kubeletHealthzPort!,
    proxyHealthzPort: proxyHealthzPort!,
    proxyMetricsPort: proxyMetricsPort!,
    sandboxImage: 'lectern.local/pause:1',
  };
}

/** containerd 1.6 (Debian's) config, version 2 schema, CRI plugin on cgroupfs and our CNI. */
export function writeContainerdConfig(layout: NodeLayout): string {
  const dir = join(layout.run, 'containerd');
  mkdirSync(join(layout.run, 'cni', 'net.d'), { recursive: true });
  mkdirSync(dir, { recursive: true });
  const toml = `version = 2
root = "${join(dir, 'root')}"
state = "${join(dir, 'state')}"
[grpc]
  address = "${layout.containerdSocket}"
[ttrpc]
  address = "${layout.containerdSocket}.ttrpc"
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "${join(dir, 'opt')}"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${layout.sandboxImage}"
  enable_selinux = false
  # This machine refuses a negative oom_score_adj (runc: "can't get final child's PID from pipe",
  # as \`docker run --oom-score-adj=-998\` shows); the kubelet asks -998 for every sandbox. Clamp
  # each container's to containerd's own (0).
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "${join(dir, 'runc')}"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${join(layout.run, 'cni', 'net.d')}"
`;
  const file = join(dir, 'config.toml');
  writeFileSync(file, toml);
  return file;
}

/** The pod network: a Linux bridge with the node as gateway, masquerade out, host ports. */
export function writeCniConfig(layout: NodeLayout): void {
  const conf = {
    cniVersion: '1.0.0',
    name: cniNetwork,
    plugins: [
      {
        type: 'bridge',
        bridge: bridgeName,
        isGateway: true,
        ipMasq: true,
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          ranges: [[{ subnet: podRange }]],
          routes: [{ dst: '0.0.0.0/0' }],
          dataDir: join(layout.run, 'cni', 'ipam'),
        },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
  writeFileSync(join(layout.run, 'cni', 'net.d', '10-lectern.conflist'), JSON.stringify(conf, null, 2));
}

/** KubeletConfiguration: cgroup v1 with cgroupfs, no swap check, our containerd, no eviction by disk. */
export function writeKubeletConfig(layout: NodeLayout, caCert: string): string {
  const config = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: '0.0.0.0',
    port: layout.kubeletPort,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: layout.kubeletHealthzPort,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: caCert } },
    authorization: { mode: 'Webhook' },
    cgroupDriver: 'cgroupfs',
    failCgroupV1: false,
    failSwapOn: false,
    containerRuntimeEndpoint: `unix://${layout.containerdSocket}`,
    imageServiceEndpoint: `unix://${layout.containerdSocket}`,
    podLogsDir: layout.podLogs,
    clusterDomain: 'cluster.local',
    resolvConf: '/etc/resolv.conf',
    // The disk is shared with the whole machine: never evict test pods for it, never GC images.
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '0%', 'imagefs.available': '0%' },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    serializeImagePulls: false,
    rotateCertificates: false,
    serverTLSBootstrap: false,
    // Metrics for metrics-server every 10 s instead of the default.
    nodeStatusReportFrequency: '10s',
    maxPods: 110,
    protectKernelDefaults: false,
  };
  const file = join(layout.run, 'kubelet-config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** KubeProxyConfiguration: iptables mode, leaving the machine's conntrack sysctls alone. */
export function writeKubeProxyConfig(layout: NodeLayout, kubeconfig: string): string {
  const config = {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    mode: 'iptables',
    clusterCIDR: clusterCidr,
    hostnameOverride: layout.nodeName,
    bindAddress: '0.0.0.0',
    healthzBindAddress: `127.0.0.1:${layout.proxyHealthzPort}`,
    metricsBindAddress: `127.0.0.1:${layout.proxyMetricsPort}`,
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
    // NodePorts on 127.0.0.1 would need net.ipv4.conf.all.route_localnet=1 machine-wide.
    iptables: { localhostNodePorts: false },
  };
  const file = join(layout.run, 'kube-proxy-config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}
