import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitUntilReady, type EngineProcess } from '../engines/engine-process.ts';
import type { KubeBinaries } from './binaries.ts';
import {
  writeCniConfig,
  writeContainerdConfig,
  writeKubeletConfig,
  writeKubeProxyConfig,
  type NodeLayout,
} from './config.ts';
import { apiGet, startComponent, type ApiClient } from './processes.ts';

const run = promisify(execFile);

/**
 * The node as host processes: a containerd instance of our own (socket, root and state under
 * the run directory; Debian's 1.6 with runc), the kubelet on it (cgroup v1, cgroupfs) with the
 * CNI bridge network, and kube-proxy in iptables mode.
 */
export async function startContainerd(layout: NodeLayout, bin: KubeBinaries): Promise<EngineProcess> {
  const config = writeContainerdConfig(layout);
  writeCniConfig(layout);
  const containerd = startComponent(layout.run, 'containerd', bin.containerd, [
    '--config',
    config,
    '--log-level',
    'warn',
  ]);
  await waitUntilReady({
    engine: containerd,
    what: 'containerd',
    timeoutMs: 30_000,
    isReady: async () => existsSync(layout.containerdSocket) && (await ctr(layout, bin, ['version']), true),
  });
  return containerd;
}

/** `ctr` against our containerd, in the k8s.io namespace (the one the CRI plugin serves). */
export async function ctr(layout: NodeLayout, bin: KubeBinaries, args: readonly string[]): Promise<string> {
  const { stdout } = await run(bin.ctr, ['--address', layout.containerdSocket, '--namespace', 'k8s.io', ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** Imports a `docker save` (or OCI) tarball, unpacked for the overlayfs snapshotter; returns its refs. */
export async function importImage(layout: NodeLayout, bin: KubeBinaries, tarball: string): Promise<string[]> {
  const out = await ctr(layout, bin, ['images', 'import', '--snapshotter', 'overlayfs', tarball]);
  return [...out.matchAll(/unpacking (\S+)/g)].map((m) => m[1]!);
}

export async function startKubelet(
  layout: NodeLayout,
  bin: KubeBinaries,
  kubeconfig: string,
  caCert: string,
  admin: ApiClient,
): Promise<EngineProcess> {
  mkdirSync(layout.podLogs, { recursive: true });
  const config = writeKubeletConfig(layout, caCert);
  const kubelet = startComponent(layout.run, 'kubelet', bin.kubelet, [
    `--config=${config}`,
    `--kubeconfig=${kubeconfig}`,
    `--root-dir=${layout.kubeletRoot}`,
    `--cert-dir=${join(layout.kubeletRoot, 'pki')}`,
    `--hostname-override=${layout.nodeName}`,
    `--node-ip=${layout.nodeIp}`,
    '--v=1',
  ]);
  await waitUntilReady({
    engine: kubelet,
    what: 'kubelet (node Ready)',
    timeoutMs: 90_000,
    isReady: async () => {
      const { status, body } = await apiGet(admin, `/api/v1/nodes/${layout.nodeName}`);
      if (status !== 200) return false;
      const node = JSON.parse(body) as { status?: { conditions?: { type: string; status: string }[] } };
      return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    },
  });
  return kubelet;
}

export async function startKubeProxy(
  layout: NodeLayout,
  bin: KubeBinaries,
  kubeconfig: string,
): Promise<EngineProcess> {
  const config = writeKubeProxyConfig(layout, kubeconfig);
  const proxy = startComponent(layout.run, 'kube-proxy', bin.kubeProxy, [`--config=${config}`]);
  await waitUntilReady({
    engine: proxy,
    what: 'kube-proxy',
    timeoutMs: 30_000,
    isReady: async () => {
      const response = await fetch(`http://127.0.0.1:${layout.proxyHealthzPort}/healthz`, {
        signal: AbortSignal.timeout(2_000),
      });
      await response.body?.cancel();
      return response.status === 200;
    },
  });
  return proxy;
}
