import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the test cluster's programs are: the Kubernetes commands, metrics-server, Prometheus, our Ingress
 * controller and the pause program that scripts/lib/kube.sh builds into ~/.cache/lectern-engines/kubernetes-<version>
 * (it records the directory in kube.json beside it), plus Debian's etcd, containerd and ctr.
 */
export interface KubeBinaries {
  readonly version: string;
  readonly dir: string;
  readonly apiserver: string;
  readonly controllerManager: string;
  readonly scheduler: string;
  readonly kubelet: string;
  readonly kubeProxy: string;
  readonly kubectl: string;
  readonly metricsServer: string;
  /** Prometheus (only Kubernetes service discovery), for the chart test's scrape. */
  readonly prometheus: string;
  /** Our Ingress controller (test/kube/ingress). */
  readonly ingress: string;
  readonly pause: string;
  readonly etcd: string;
  readonly containerd: string;
  readonly ctr: string;
}

const cache = process.env['LECTERN_ENGINES_CACHE'] ?? join(homedir(), '.cache', 'lectern-engines');

export function kubeBinaries(): KubeBinaries {
  const recorded = join(cache, 'kube.json');
  const dir = existsSync(recorded)
    ? (JSON.parse(readFileSync(recorded, 'utf8')) as { dir: string }).dir
    : join(cache, 'kubernetes-v1.37.2');
  const bin = (name: string) => join(dir, 'bin', name);
  return {
    version: dir.replace(/^.*kubernetes-/, ''),
    dir,
    apiserver: bin('kube-apiserver'),
    controllerManager: bin('kube-controller-manager'),
    scheduler: bin('kube-scheduler'),
    kubelet: bin('kubelet'),
    kubeProxy: bin('kube-proxy'),
    kubectl: bin('kubectl'),
    metricsServer: bin('metrics-server'),
    prometheus: bin('prometheus'),
    ingress: bin('lectern-ingress'),
    pause: bin('pause'),
    etcd: '/usr/bin/etcd',
    containerd: '/usr/bin/containerd',
    ctr: '/usr/bin/ctr',
  };
}

/**
 * Whether the tests on the cluster built here run: by default (scripts/lib/kube.sh builds its
 * programs from source once per machine, in the background of a first ./scripts/test);
 * LECTERN_KUBE=0 turns them off, and they skip with a line saying so.
 */
export const isKubeWanted = process.env['LECTERN_KUBE'] !== '0';

/**
 * Why the cluster tests skip (null: they run). In CI a missing program throws.
 */
export function kubeSkipReason(isRequired: boolean): string | null {
  if (!isKubeWanted) return 'off (LECTERN_KUBE=0; docs/engines.md)';
  const missing = missingBinaries(kubeBinaries());
  if (missing.length === 0) return null;
  const message = `the test cluster's programs are missing (scripts/lib/kube.sh): ${missing.join(', ')}`;
  if (isRequired) throw new Error(message);
  return message;
}

/** The programs of `binaries` that are not there (empty when the cluster can start). */
export function missingBinaries(binaries: KubeBinaries): string[] {
  return Object.entries(binaries)
    .filter(([key, path]) => key !== 'version' && key !== 'dir' && !existsSync(path))
    .map(([, path]) => path);
}
