import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { stopEngine, type EngineProcess } from '../engines/engine-process.ts';
import { startIngress, startMetricsServer, type Kubectl } from './addons.ts';
import { kubeBinaries, missingBinaries } from './binaries.ts';
import { cleanUp, findLeftovers, netnsNames, readSysctls, type Leftovers, type Sysctls } from './cleanup.ts';
import { nodeLayout } from './config.ts';
import { startControlPlane } from './control-plane.ts';
import { staticImageTarball } from './static-image.ts';
import { importImage, startContainerd, startKubelet, startKubeProxy } from './node.ts';
import { makePki } from './pki.ts';
import { freePorts } from './processes.ts';

/**
 * A real single-node Kubernetes for tests, every part a host process built here
 * (scripts/lib/kube.sh): etcd, kube-apiserver, kube-controller-manager, kube-scheduler, a kubelet
 * on a containerd of its own with the CNI bridge network, kube-proxy (iptables), metrics-server
 * and our Ingress controller (test/kube/ingress). No registry: pods run images imported with `importImage` and must
 * say `imagePullPolicy: IfNotPresent` (or Never). One cluster per machine at a time (kube-proxy's
 * iptables chains are global): a second start fails while the first runs; a start after a crash
 * clears what the crashed run left. Needs root.
 */
export interface KubeCluster {
  /** Admin kubeconfig (system:masters). */
  readonly kubeconfig: string;
  /** The API server's URL. */
  readonly server: string;
  /** The node's address: host processes listening on it are reachable from pods, and pods' Services from it. */
  readonly nodeIp: string;
  /** Host port serving Ingress (any host address; route by Host header). */
  readonly ingressPort: number;
  readonly nodeName: string;
  readonly runDir: string;
  readonly version: string;
  /** Runs kubectl with the admin kubeconfig; rejects with its stderr on a non-zero exit. */
  readonly kubectl: Kubectl;
  /** Imports a `docker save` (or OCI) tarball into the node's containerd; answers the image refs. */
  importImage(tarball: string): Promise<string[]>;
  /** Stops every process and removes everything the run made (see leftovers). */
  stop(): Promise<void>;
  /** What the run left on the machine (all empty after a clean stop). */
  leftovers(): Leftovers;
}

export interface KubeClusterOptions {
  /** Node address (default: LECTERN_KUBE_NODE_IP, else the first non-loopback IPv4 of a physical interface). */
  nodeIp?: string;
  /** Host port for Ingress (default: a free one). */
  ingressPort?: number;
  /** Extra kube-controller-manager flags, e.g. `--horizontal-pod-autoscaler-sync-period=5s`. */
  controllerManagerArgs?: readonly string[];
  /** Keep the run directory (logs) after stop. */
  keepRunDir?: boolean;
  log?: (line: string) => void;
}

const lockFile = join(tmpdir(), 'lectern-kube.lock');
const nodeName = 'lectern-node';
const exec = promisify(execFile);

export async function startKubeCluster(options: KubeClusterOptions = {}): Promise<KubeCluster> {
  const began = Date.now();
  const log = options.log ?? ((line: string) => console.log(`[kube] ${line}`));
  const bin = kubeBinaries();
  const missing = missingBinaries(bin);
  if (missing.length > 0)
    throw new Error(
      `the test cluster's programs are missing (run scripts/lib/kube.sh's lectern_kube): ${missing.join(', ')}`,
    );
  if (process.getuid?.() !== 0) throw new Error('the test cluster needs root (containerd, kubelet, iptables)');
  takeLock(log);
  const run = mkdtempSync(join(tmpdir(), 'lectern-kube-'));
  const sysctls = readSysctls();
  writeFileSync(lockFile, JSON.stringify({ pid: process.pid, run, sysctls }));
  mkdirSync(join(run, 'logs'));
  const netnsBefore = netnsNames();
  const processes: EngineProcess[] = [];
  const nodeIp = options.nodeIp ?? process.env['LECTERN_KUBE_NODE_IP'] ?? defaultNodeIp();
  const [etcdClient, etcdPeer, api, cm, sched, msPort, pingPort, freeIngress, ...nodePorts] = await freePorts(12);
  const ingressPort = options.ingressPort ?? freeIngress!;
  const layout = nodeLayout(run, nodeName, nodeIp, nodePorts);
  let stopped = false;
  let kubectl: Kubectl = () => Promise.reject(new Error('the API server is not up yet'));

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const t = Date.now();
    await drainPods(processes, kubectl, run).catch((error: unknown) => log(`draining pods: ${String(error)}`));
    for (const p of processes.slice().reverse()) await stopEngine(p, 10_000);
    spawnSync(bin.kubeProxy, ['--cleanup'], { stdio: 'ignore', timeout: 30_000 });
    cleanUp(run, netnsBefore, sysctls, options.keepRunDir ?? false);
    rmSync(lockFile, { force: true });
    log(`cluster stopped and cleaned up in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  try {
    const pki = makePki(join(run, 'pki'), nodeName, nodeIp);
    const plane = await startControlPlane({
      run,
      bin,
      pki,
      nodeIp,
      ports: { etcdClient: etcdClient!, etcdPeer: etcdPeer!, api: api!, controllerManager: cm!, scheduler: sched! },
      ...(options.controllerManagerArgs ? { controllerManagerArgs: options.controllerManagerArgs } : {}),
    });
    processes.push(...plane.processes);
    kubectl = async (args, input) => {
      const child = exec(bin.kubectl, ['--kubeconfig', plane.adminKubeconfig, ...args], {
        maxBuffer: 64 * 1024 * 1024,
      });
      child.child.stdin?.end(input);
      try {
        return (await child).stdout;
      } catch (error) {
        const e = error as { stderr?: string; message: string };
        throw new Error(`kubectl ${args.join(' ')}: ${e.stderr?.trim() || e.message}`, { cause: error });
      }
    };
    log(`control plane up at ${plane.server} (${secondsSince(began)})`);
    processes.push(await startContainerd(layout, bin));
    const pause = staticImageTarball({
      ref: layout.sandboxImage,
      binaries: [bin.pause],
      entrypoint: ['/pause'],
      out: join(run, 'pause.tar'),
    });
    await importImage(layout, bin, pause);
    processes.push(await startKubelet(layout, bin, plane.kubeletKubeconfig, pki.caCert, plane.admin));
    processes.push(await startKubeProxy(layout, bin, plane.proxyKubeconfig));
    log(`node ${nodeName} Ready at ${nodeIp} (${secondsSince(began)})`);
    const addonArgs = { run, bin, kubectl };
    processes.push(
      await startMetricsServer({
        ...addonArgs,
        nodeIp,
        port: msPort!,
        kubeconfig: plane.adminKubeconfig,
        admin: plane.admin,
      }),
    );
    processes.push(
      await startIngress({
        ...addonArgs,
        nodeIp,
        kubeconfig: plane.adminKubeconfig,
        ingressPort,
        healthPort: pingPort!,
      }),
    );
    log(`cluster ready in ${secondsSince(began)}: kubeconfig ${plane.adminKubeconfig}, Ingress on port ${ingressPort}`);
    return {
      kubeconfig: plane.adminKubeconfig,
      server: plane.server,
      nodeIp,
      ingressPort,
      nodeName,
      runDir: run,
      version: bin.version,
      kubectl: (args, input) => kubectl(args, input),
      importImage: (tarball) => importImage(layout, bin, tarball),
      stop,
      leftovers: () => findLeftovers(run, netnsBefore, sysctls),
    };
  } catch (error) {
    log(`start failed; logs in ${join(run, 'logs')} are copied to ${run}.logs`);
    spawnSync('cp', ['-r', join(run, 'logs'), `${run}.logs`]);
    await stop();
    throw error;
  }
}

/**
 * Stops new pods (controller manager, scheduler), deletes every pod so the kubelet tears each
 * sandbox down through the CNI plugins (addresses, veths, iptables rules), and waits until the
 * pod network holds no address (at most 60 s; cleanup.ts removes what remains).
 */
async function drainPods(processes: EngineProcess[], kubectl: Kubectl, run: string): Promise<void> {
  for (const p of processes.filter((e) => /kube-(controller-manager|scheduler)\.log$/.test(e.log)))
    await stopEngine(p, 5_000);
  await kubectl([
    'delete',
    'pods',
    '--all',
    '--all-namespaces',
    '--force',
    '--grace-period=0',
    '--wait=false',
    '--request-timeout=30s',
  ]);
  const ipam = join(run, 'cni', 'ipam', 'lectern-kube');
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const held = existsSync(ipam) ? readdirSync(ipam).filter((f) => /^\d+\.\d+\.\d+\.\d+$/.test(f)) : [];
    if (held.length === 0) return;
    await sleep(500);
  }
}

/** Refuses to start beside a running cluster; clears what a crashed run left. */
function takeLock(log: (line: string) => void): void {
  if (!existsSync(lockFile)) return;
  const { pid, run, sysctls } = JSON.parse(readFileSync(lockFile, 'utf8')) as {
    pid: number;
    run: string;
    sysctls: Sysctls;
  };
  if (isAlive(pid)) {
    throw new Error(`a test cluster of process ${pid} is running (${run}); one cluster per machine at a time`);
  }
  log(`clearing what the run in ${run} (process ${pid}, gone) left behind`);
  cleanUp(
    run,
    netnsNames().filter((n) => !n.startsWith('cni-')),
    sysctls,
  );
  rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function defaultNodeIp(): string {
  for (const [name, addresses] of Object.entries(networkInterfaces())) {
    if (/^(lo|docker|lectern|veth|br-|cni|virbr)/.test(name)) continue;
    const v4 = addresses?.find((a) => a.family === 'IPv4' && !a.internal);
    if (v4) return v4.address;
  }
  throw new Error('no IPv4 address for the node: set LECTERN_KUBE_NODE_IP');
}

function secondsSince(t: number): string {
  return `${((Date.now() - t) / 1000).toFixed(1)} s`;
}
