import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { bridgeName, cniNetwork } from './config.ts';

/**
 * What a test cluster leaves on the machine once its processes are stopped, and its removal.
 * The cluster is one per machine at a time (kube-proxy's iptables chains and the kubepods cgroups
 * are global), so every KUBE-* or CNI-* chain, every kubepods cgroup and every `cni-` network
 * namespace made during the run is ours.
 */
export interface Leftovers {
  processes: string[];
  mounts: string[];
  netns: string[];
  links: string[];
  iptables: string[];
  cgroups: string[];
  logLinks: string[];
  /** Kernel settings the kubelet or kube-proxy changed and a stop did not put back. */
  sysctls: string[];
  runDir: boolean;
}

/**
 * The kernel settings the kubelet (setupKernelTunables), kube-proxy (conntrack, route_localnet)
 * and the CNI bridge plugin (forwarding) may change: read before the start, put back at the stop.
 */
const tunables = [
  'vm/overcommit_memory',
  'vm/panic_on_oom',
  'kernel/panic',
  'kernel/panic_on_oops',
  'kernel/keys/root_maxkeys',
  'kernel/keys/root_maxbytes',
  'net/ipv4/ip_forward',
  'net/ipv4/conf/all/route_localnet',
  'net/bridge/bridge-nf-call-iptables',
  'net/netfilter/nf_conntrack_max',
  'net/netfilter/nf_conntrack_tcp_timeout_established',
  'net/netfilter/nf_conntrack_tcp_timeout_close_wait',
  'net/netfilter/nf_conntrack_tcp_be_liberal',
  'net/netfilter/nf_conntrack_udp_timeout',
  'net/netfilter/nf_conntrack_udp_timeout_stream',
];

export type Sysctls = Record<string, string>;

export function readSysctls(): Sysctls {
  const values: Sysctls = {};
  for (const name of tunables) {
    try {
      values[name] = readFileSync(`/proc/sys/${name}`, 'utf8').trim();
    } catch {
      // Not on this kernel.
    }
  }
  return values;
}

function changedSysctls(before: Sysctls): string[] {
  const now = readSysctls();
  return Object.entries(before)
    .filter(([name, value]) => now[name] !== undefined && now[name] !== value)
    .map(([name, value]) => `${name}: ${value} -> ${now[name]}`);
}

function restoreSysctls(before: Sysctls): void {
  const now = readSysctls();
  for (const [name, value] of Object.entries(before)) {
    if (now[name] === undefined || now[name] === value) continue;
    try {
      writeFileSync(`/proc/sys/${name}`, value);
    } catch (error) {
      console.warn(`[kube] could not put ${name} back to ${value}: ${String(error)}`);
    }
  }
}

const cgroupRoot = '/sys/fs/cgroup';
// /var/run is a link to /run: mountinfo names the namespaces' bind mounts under /run/netns.
const netnsDir = '/run/netns';

export function netnsNames(): string[] {
  return existsSync(netnsDir) ? readdirSync(netnsDir) : [];
}

/** Lists what remains of the run in `run`; `netnsBefore` is the network namespaces before start. */
export function findLeftovers(run: string, netnsBefore: readonly string[], sysctlsBefore: Sysctls): Leftovers {
  return {
    processes: processesMentioning(run).map((p) => `${p.pid} ${p.cmd}`),
    mounts: mountsUnder([run, netnsDir]).filter(
      (m) =>
        m.startsWith(run) || (m.startsWith(`${netnsDir}/cni-`) && !netnsBefore.includes(m.slice(netnsDir.length + 1))),
    ),
    netns: netnsNames().filter((n) => n.startsWith('cni-') && !netnsBefore.includes(n)),
    links: linkExists(bridgeName) ? [bridgeName] : [],
    iptables: ourIptablesLines('iptables').concat(ourIptablesLines('ip6tables')),
    cgroups: kubepodsCgroups(),
    logLinks: podLogLinks(run),
    sysctls: changedSysctls(sysctlsBefore),
    runDir: existsSync(run),
  };
}

/** Removes everything findLeftovers lists (the run directory last, unless `keepRunDir`). */
export function cleanUp(run: string, netnsBefore: readonly string[], sysctlsBefore: Sysctls, keepRunDir = false): void {
  for (const p of processesMentioning(run)) kill(p.pid);
  for (const pid of kubepodsPids()) kill(pid);
  const left = findLeftovers(run, netnsBefore, sysctlsBefore);
  for (const mount of left.mounts.slice().reverse()) spawnSync('umount', ['-l', mount]);
  for (const ns of left.netns) rmSync(join(netnsDir, ns), { force: true });
  for (const link of left.links) spawnSync('ip', ['link', 'del', link]);
  for (const tool of ['iptables', 'ip6tables'] as const) removeOurChains(tool);
  for (const dir of kubepodsCgroups().sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(dir);
    } catch {
      // Still has a process or a child: the next stop or a reboot gets it.
    }
  }
  for (const link of left.logLinks) rmSync(link, { force: true });
  for (const dir of ['/var/lib/cni/results', '/var/lib/cni/cache/results']) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) if (f.startsWith(`${cniNetwork}-`)) rmSync(join(dir, f), { force: true });
  }
  restoreSysctls(sysctlsBefore);
  if (!keepRunDir) rmSync(run, { recursive: true, force: true });
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

function processesMentioning(run: string): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (cmd.includes(run)) found.push({ pid: Number(entry), cmd });
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

function mountsUnder(prefixes: readonly string[]): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4]?.replace(/\\040/g, ' ') ?? '')
    .filter((point) => prefixes.some((p) => point.startsWith(p)));
}

function linkExists(name: string): boolean {
  return existsSync(`/sys/class/net/${name}`);
}

function kubepodsCgroups(): string[] {
  const dirs: string[] = [];
  if (!existsSync(cgroupRoot)) return dirs;
  const walk = (dir: string) => {
    dirs.push(dir);
    for (const e of readdirSync(dir)) {
      const child = join(dir, e);
      if (statSync(child).isDirectory()) walk(child);
    }
  };
  for (const controller of readdirSync(cgroupRoot)) {
    const top = join(cgroupRoot, controller, 'kubepods');
    if (existsSync(top)) walk(top);
  }
  return dirs;
}

function kubepodsPids(): number[] {
  const pids = new Set<number>();
  for (const dir of kubepodsCgroups()) {
    const procs = join(dir, 'cgroup.procs');
    if (!existsSync(procs)) continue;
    for (const line of readFileSync(procs, 'utf8').split('\n')) if (line) pids.add(Number(line));
  }
  return [...pids];
}

function podLogLinks(run: string): string[] {
  const dir = '/var/log/containers';
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => join(dir, f))
    .filter((link) => {
      try {
        return readlinkSync(link).startsWith(run);
      } catch {
        return false;
      }
    });
}

const ourChain = /^(KUBE-|CNI-)/;

/** Rules and chains of kube-proxy, the kubelet and the CNI plugins in `iptables-save` output. */
function ourIptablesLines(tool: 'iptables' | 'ip6tables'): string[] {
  const saved = spawnSync(`${tool}-save`, [], { encoding: 'utf8' });
  if (saved.status !== 0) return [];
  return saved.stdout
    .split('\n')
    .filter(
      (l) =>
        /^:(KUBE-|CNI-)/.test(l) ||
        /^-A (KUBE-|CNI-)/.test(l) ||
        / -j (KUBE-|CNI-)/.test(l) ||
        l.includes(`name: \\"${cniNetwork}\\"`),
    )
    .map((l) => `${tool} ${l}`);
}

/** Deletes the rules that jump to our chains, then flushes and deletes the chains, per table. */
function removeOurChains(tool: 'iptables' | 'ip6tables'): void {
  const saved = spawnSync(`${tool}-save`, [], { encoding: 'utf8' });
  if (saved.status !== 0) return;
  const script: string[] = [];
  let table = '';
  let deletes: string[] = [];
  let chains: string[] = [];
  const flushTable = () => {
    if (table && (deletes.length > 0 || chains.length > 0)) {
      script.push(`*${table}`, ...deletes, ...chains.map((c) => `-F ${c}`), ...chains.map((c) => `-X ${c}`), 'COMMIT');
    }
  };
  for (const line of saved.stdout.split('\n')) {
    if (line.startsWith('*')) {
      flushTable();
      table = line.slice(1);
      deletes = [];
      chains = [];
    } else if (line.startsWith(':')) {
      const chain = line.slice(1).split(' ')[0]!;
      if (ourChain.test(chain)) chains.push(chain);
    } else if (line.startsWith('-A ')) {
      const chain = line.split(' ')[1]!;
      if (!ourChain.test(chain) && (/ -j (KUBE-|CNI-)/.test(line) || line.includes(`name: \\"${cniNetwork}\\"`))) {
        deletes.push(`-D ${line.slice(3)}`);
      }
    }
  }
  flushTable();
  if (script.length === 0) return;
  try {
    execFileSync(`${tool}-restore`, ['--noflush'], {
      input: `${script.join('\n')}\n`,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
  } catch (error) {
    console.warn(`[kube] ${tool}-restore could not remove every rule: ${String(error)}`);
  }
}
