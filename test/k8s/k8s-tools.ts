import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isEngineRequired } from '../engines/index.ts';
import { repoRoot } from '../cluster/service-process.ts';

/** The validation tools scripts/lib/k8s-tools.sh installs, and the schemas' Kubernetes versions. */
export interface K8sTools {
  readonly helm: string;
  readonly kubeconform: string;
  readonly promtool: string;
  readonly kustomize: string;
  readonly schemas: string;
  readonly kubernetesVersions: readonly string[];
}

export const chartDir = join(repoRoot, 'charts', 'lectern');
const installHint =
  'source scripts/lib/toolchain.sh scripts/lib/engines.sh scripts/lib/k8s-tools.sh; lectern_k8s_tools';

/**
 * The tools named by LECTERN_HELM, … (set by `lectern_k8s_tools`), else by the cache's
 * k8s-tools.json. Missing: an error in CI, elsewhere null after a loud notice (the tests skip).
 */
export function findK8sTools(): K8sTools | null {
  const cache = process.env['LECTERN_ENGINES_CACHE'] ?? join(homedir(), '.cache', 'lectern-engines');
  const file = join(cache, 'k8s-tools.json');
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const pick = (env: string, key: string) => process.env[env] ?? saved[key] ?? '';
  const tools = {
    helm: pick('LECTERN_HELM', 'helm'),
    kubeconform: pick('LECTERN_KUBECONFORM', 'kubeconform'),
    promtool: pick('LECTERN_PROMTOOL', 'promtool'),
    kustomize: pick('LECTERN_KUSTOMIZE', 'kustomize'),
    schemas: pick('LECTERN_K8S_SCHEMAS', 'schemas'),
    kubernetesVersions: pick('LECTERN_K8S_SCHEMA_VERSIONS', 'kubernetesVersions').split(/\s+/).filter(Boolean),
  };
  const missing = Object.entries(tools)
    .filter(([, v]) => (Array.isArray(v) ? v.length === 0 : !existsSync(v as string)))
    .map(([k]) => k);
  if (missing.length === 0) return tools;
  const message = `Kubernetes tools missing (${missing.join(', ')}); install them with: ${installHint}`;
  if (isEngineRequired) throw new Error(message);
  console.warn(`\n!!! ${message}\n!!! The chart tests are SKIPPED.\n`);
  return null;
}

/** The Kubernetes version `helm template` renders for: the oldest one the manifests are validated against. */
export const renderKubeVersion = (tools: K8sTools) => tools.kubernetesVersions[0]!;

/** `helm template` of the chart; throws with helm's message on failure. */
export function helmTemplate(
  tools: K8sTools,
  options: { valuesFiles?: readonly string[]; set?: Readonly<Record<string, string>>; release?: string } = {},
): string {
  const args = [
    'template',
    options.release ?? 'lectern',
    chartDir,
    '--namespace',
    'lectern',
    '--kube-version',
    renderKubeVersion(tools),
    ...(options.valuesFiles ?? []).flatMap((f) => ['--values', f]),
    ...Object.entries(options.set ?? {}).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
  ];
  return run(tools.helm, args);
}

/** Runs a tool; its stdout, or an error carrying stdout and stderr. */
export function run(command: string, args: readonly string[], input?: string): string {
  try {
    return execFileSync(command, args, {
      cwd: repoRoot,
      encoding: 'utf8',
      input,
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`, {
      cause: error,
    });
  }
}

/** The entries the Dockerfile's targets run: `ENTRYPOINT ["node", "<entry>"]`. */
export function dockerfileEntries(): string[] {
  const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  return [...dockerfile.matchAll(/^ENTRYPOINT \["node", "([^"]+)"\]$/gm)].map((m) => m[1]!);
}

/** A rendered Kubernetes object, loosely typed. */
export interface K8sObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly annotations?: Record<string, string> };
  readonly spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The objects of a multi-document YAML stream (empty documents left out). */
export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`invalid YAML from helm: ${d.errors[0]!.message}`);
      return d.toJSON() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

/** One object's kubeconform result: `Kind/name` and its status (valid, invalid, error, skipped). */
export interface ObjectCheck {
  readonly object: string;
  readonly version: string;
  readonly status: string;
  readonly message: string;
}

/**
 * kubeconform -strict over several manifests at once (one run per pinned Kubernetes version:
 * most of its time goes into compiling the schemas), as each object's result per manifest label.
 */
export function kubeconformAll(
  tools: K8sTools,
  manifests: Readonly<Record<string, string>>,
  options: { dir: string; skipKinds: readonly string[] },
): Map<string, ObjectCheck[]> {
  const fileOf = (label: string) => join(options.dir, `${label}.yaml`);
  for (const [label, text] of Object.entries(manifests)) writeFileSync(fileOf(label), text);
  const results = new Map<string, ObjectCheck[]>(Object.keys(manifests).map((label) => [label, []]));
  for (const version of tools.kubernetesVersions) {
    const args = [
      '-strict',
      '-output',
      'json',
      '-verbose',
      '-kubernetes-version',
      version,
      '-skip',
      options.skipKinds.join(','),
      '-schema-location',
      `${tools.schemas}/{{ .NormalizedKubernetesVersion }}-local-strict/{{ .ResourceKind }}{{ .KindSuffix }}.json`,
      ...Object.keys(manifests).map(fileOf),
    ];
    // Exit code 1 means some object is invalid: the JSON says which.
    const run = spawnSync(tools.kubeconform, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0 && run.status !== 1) throw new Error(`kubeconform failed: ${run.stderr}${run.stdout}`);
    const report = JSON.parse(run.stdout) as {
      resources: { filename: string; kind: string; name: string; status: string; msg: string }[];
    };
    // A document with no object (a comment before the first `---`) is listed with empty fields.
    for (const r of report.resources.filter((x) => x.kind !== '' || x.status !== '')) {
      const label = Object.keys(manifests).find((l) => fileOf(l) === r.filename);
      results.get(label!)!.push({
        object: `${r.kind}/${r.name}`,
        version,
        status: r.status.replace(/^status/, '').toLowerCase(),
        message: r.msg,
      });
    }
  }
  return results;
}
