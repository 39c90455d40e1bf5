import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { repoRoot } from '../cluster/service-process.ts';

/** What a pod template's only container would run, turned into a process on this machine. */
export interface PodProcessSpec {
  /** The Deployment's (or Job's) name. */
  readonly name: string;
  /** The entry file, relative to the repository root (the image's working directory). */
  readonly entry: string;
  readonly args: readonly string[];
  /** The container's environment, with every path into a mounted Secret moved to its local copy. */
  readonly env: Readonly<Record<string, string>>;
  /** Container ports by name. */
  readonly ports: Readonly<Record<string, number>>;
  readonly readiness?: { readonly path: string; readonly port: number };
  readonly liveness?: { readonly path: string; readonly port: number };
}

interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: unknown;
}
interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvEntry[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Volume {
  name: string;
  secret?: { secretName: string; items?: { key: string; path: string }[] };
  emptyDir?: unknown;
}
export interface PodTemplateSpec {
  containers: Container[];
  volumes?: Volume[];
}

/** The image's working directory: the repository's root in the Dockerfile. */
const imageRoot = '/app';

/**
 * Turns a pod template into a local process spec, as the kubelet would run it: Secret volumes are
 * written as files under `dir` from `secrets` (Secret name → key → value; a Secret or key that does
 * not exist fails, as the pod would not start), `*_FILE` paths point at those files. Only what the
 * chart uses is accepted: one container running `node <entry>`, env values (no valueFrom), Secret
 * and emptyDir volumes.
 */
export function podProcessSpec(options: {
  name: string;
  pod: PodTemplateSpec;
  secrets: Readonly<Record<string, Readonly<Record<string, string>>>>;
  dir: string;
}): PodProcessSpec {
  const { pod, name } = options;
  if (pod.containers.length !== 1) throw new Error(`${name}: expected one container, got ${pod.containers.length}`);
  const c = pod.containers[0]!;
  if (JSON.stringify(c.command) !== '["node"]') throw new Error(`${name}: command ${JSON.stringify(c.command)}`);
  if (c.workingDir !== imageRoot) throw new Error(`${name}: workingDir ${c.workingDir} is not ${imageRoot}`);
  const [entry, ...args] = c.args ?? [];
  if (!entry || posix.isAbsolute(entry)) throw new Error(`${name}: args must start with the entry file`);

  const mounts = new Map<string, string>();
  for (const mount of c.volumeMounts ?? []) {
    const volume = pod.volumes?.find((v) => v.name === mount.name);
    if (!volume) throw new Error(`${name}: volumeMount ${mount.name} has no volume`);
    if (volume.emptyDir !== undefined) continue;
    if (!volume.secret) throw new Error(`${name}: volume ${volume.name} is neither a Secret nor an emptyDir`);
    const secret = options.secrets[volume.secret.secretName];
    if (!secret) throw new Error(`${name}: Secret ${volume.secret.secretName} does not exist`);
    const local = join(options.dir, name, volume.name);
    mkdirSync(local, { recursive: true });
    const items = volume.secret.items ?? Object.keys(secret).map((key) => ({ key, path: key }));
    for (const item of items) {
      const value = secret[item.key];
      if (value === undefined) throw new Error(`${name}: Secret ${volume.secret.secretName} has no key ${item.key}`);
      writeFileSync(join(local, item.path), value, { mode: 0o600 });
    }
    mounts.set(mount.mountPath, local);
  }

  const env: Record<string, string> = {};
  for (const e of c.env ?? []) {
    if (e.value === undefined) throw new Error(`${name}: env ${e.name} has no plain value (valueFrom is not used)`);
    if (e.name in env) throw new Error(`${name}: env ${e.name} set twice`);
    let value = e.value;
    for (const [mountPath, local] of mounts) {
      if (value.startsWith(`${mountPath}/`)) value = local + value.slice(mountPath.length);
    }
    env[e.name] = value;
  }
  const ports = Object.fromEntries((c.ports ?? []).map((p) => [p.name, p.containerPort]));
  const probe = (p: Probe | undefined) => {
    if (!p) return undefined;
    const port = typeof p.httpGet.port === 'number' ? p.httpGet.port : ports[p.httpGet.port];
    if (port === undefined) throw new Error(`${name}: probe port ${p.httpGet.port} is not a container port`);
    return { path: p.httpGet.path, port };
  };
  return {
    name,
    entry,
    args,
    env,
    ports,
    readiness: probe(c.readinessProbe),
    liveness: probe(c.livenessProbe),
  };
}

/** Whether the entry file exists in this tree (a service another branch has not delivered yet may not). */
export const entryExists = (spec: PodProcessSpec) => existsSync(join(repoRoot, spec.entry));

/**
 * The environment names an entry reads, from its `--help` (runServiceMain prints each setting as
 * `  NAME` or `  NAME (or NAME_FILE)`).
 */
export function acceptedEnv(entry: string): Set<string> {
  const help = execFileSync(process.execPath, [join(repoRoot, entry), '--help'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '' },
  });
  const names = new Set<string>();
  for (const m of help.matchAll(/^ {2}([A-Z][A-Z0-9_]*)(?: \(or ([A-Z][A-Z0-9_]*_FILE)\))?$/gm)) {
    names.add(m[1]!);
    if (m[2]) names.add(m[2]);
  }
  if (names.size === 0) throw new Error(`${entry} --help lists no settings:\n${help}`);
  return names;
}

/** The spec's environment names its entry does not read (a misspelt or unknown setting). */
export function unreadEnv(spec: PodProcessSpec): string[] {
  const accepted = acceptedEnv(spec.entry);
  return Object.keys(spec.env).filter((n) => !accepted.has(n));
}
