import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { managementClient, type ManagementClient } from './seed-source.ts';

const cliPath = fileURLToPath(new URL('../../services/lectern/src/cli.ts', import.meta.url));
const dataOpsPath = fileURLToPath(new URL('../node_modules/@kontent-ai/data-ops/build/src/index.js', import.meta.url));
const resolverPath = fileURLToPath(new URL('./resolve-test-hosts.mjs', import.meta.url));

/** The domain data-ops is given: `manage.lectern.test`, `deliver.lectern.test`, … (see resolve-test-hosts.mjs). */
const domain = 'lectern.test';

export interface Project {
  readonly id: string;
  readonly managementKey: string;
  readonly previewKey: string;
  readonly api: ManagementClient;
}

export interface DataOpsResult {
  readonly code: number;
  readonly output: string;
}

export interface LecternForDataOps {
  readonly managementUrl: string;
  readonly deliveryUrl: string;
  readonly previewUrl: string;
  /** A work directory for data-ops' files. */
  readonly dir: string;
  createProject(name: string): Promise<Project>;
  /** Runs `data-ops <args> --kontentUrl lectern.test:<port>` in `dir`, trusting the test certificate. */
  dataOps(args: readonly string[]): Promise<DataOpsResult>;
  stop(): Promise<void>;
}

/**
 * `lectern start` as its own process, as a user runs it for data-ops: every API on one HTTPS port
 * chosen by host name (`--host-routing-port`), with a certificate made for `*.lectern.test`, and
 * the Management rate limits off so the test spends no time in Retry-After waits.
 */
export async function startLecternForDataOps(): Promise<LecternForDataOps> {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-data-ops-'));
  const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${domain}`,
      '-addext',
      `subjectAltName=DNS:*.${domain},DNS:${domain}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const token = randomBytes(24).toString('hex');
  const child = spawn(
    process.execPath,
    [
      cliPath,
      'start',
      '--json',
      '--no-demo',
      '--port-base',
      '0',
      '--data-dir',
      join(dir, 'data'),
      '--host-routing-port',
      '0',
      '--tls-cert-file',
      certFile,
      '--tls-key-file',
      keyFile,
    ],
    {
      env: {
        ...process.env,
        LECTERN_LOG_LEVEL: 'warn',
        LECTERN_OPERATOR_TOKEN: token,
        LECTERN_MANAGEMENT_PER_SECOND: '0',
        LECTERN_MANAGEMENT_PER_MINUTE: '0',
        LECTERN_MANAGEMENT_PER_HOUR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  const urls = await new Promise<Record<string, string>>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{"data_dir"')) resolve((JSON.parse(line) as { urls: Record<string, string> }).urls);
    });
    void exited.then((code) => reject(new Error(`lectern start exited (${code}):\n${stderr}`)));
  });
  const routedPort = new URL(urls['routed'] ?? '').port;
  const managementUrl = urls['management'] ?? '';
  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${managementUrl}/admin${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`admin ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  };
  return {
    managementUrl,
    deliveryUrl: urls['delivery'] ?? '',
    previewUrl: urls['preview'] ?? '',
    dir,
    async createProject(name) {
      const { id = '' } = await admin('/projects', { name });
      const management = await admin(`/projects/${id}/keys`, { kind: 'management', user_email: 'ops@lectern.test' });
      const preview = await admin(`/projects/${id}/keys`, { kind: 'preview_primary' });
      const managementKey = management['api_key'] ?? '';
      return {
        id,
        managementKey,
        previewKey: preview['api_key'] ?? '',
        api: managementClient({ baseUrl: managementUrl, projectId: id, key: managementKey }),
      };
    },
    dataOps(args) {
      const run = spawn(process.execPath, [dataOpsPath, ...args, '--kontentUrl', `${domain}:${routedPort}`], {
        cwd: dir,
        env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile, NODE_OPTIONS: `--import ${resolverPath}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      run.stdout.on('data', (c: Buffer) => (output += c.toString()));
      run.stderr.on('data', (c: Buffer) => (output += c.toString()));
      return new Promise((resolve) => run.once('exit', (code) => resolve({ code: code ?? -1, output })));
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
