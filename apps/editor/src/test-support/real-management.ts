import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { vi } from 'vitest';

/**
 * The real Management API for component tests: `lectern start` as a child process (embedded
 * PGlite, a fresh data directory, so the first start seeds the demo project of
 * services/lectern demo-model.ts and demo-content.ts with a management key). `routeFetchTo`
 * sends the app's `/app/api/v2/projects/{id}/…` requests to it (with the key in place of the
 * session) through node:http, since the test's DOM has its own `fetch`.
 */
export interface RealStack {
  readonly projectId: string;
  readonly managementBaseUrl: string;
  readonly managementKey: string;
  close(): Promise<void>;
}

function repoRoot(): string {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'pnpm-workspace.yaml')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

interface StartSummary {
  readonly urls: Record<string, string>;
  readonly demo: { project_id: string; keys: { kind: string; api_key: string }[] } | null;
}

/** Starts `lectern start --json --port-base 0` on a new data directory; resolves once it is ready. */
export async function startDemoStack(): Promise<RealStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lectern-editor-test-'));
  const cli = join(repoRoot(), 'services', 'lectern', 'src', 'cli.ts');
  const child = spawn(process.execPath, [cli, 'start', '--json', '--port-base', '0', '--data-dir', dataDir], {
    // The app opens an item with a burst of reads; the test opens many, faster than a person would.
    env: {
      ...process.env,
      LECTERN_LOG_LEVEL: 'warn',
      LECTERN_MANAGEMENT_PER_SECOND: '0',
      LECTERN_MANAGEMENT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const summary = await new Promise<StartSummary>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{"data_dir"')) resolve(JSON.parse(line) as StartSummary);
    });
    void exited.then(() => reject(new Error(`lectern start ended before it was ready:\n${stderr}`)));
  });
  const key = summary.demo?.keys.find((k) => k.kind === 'management')?.api_key;
  const management = summary.urls['management'];
  if (!summary.demo || !key || !management)
    throw new Error('lectern start made no demo project with a management key.');
  return {
    projectId: summary.demo.project_id,
    managementBaseUrl: `${management}/v2`,
    managementKey: key,
    async close() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One request to the stack's Management API: status and body text. */
export function callManagement(
  stack: RealStack,
  path: string,
  options: { method?: string; body?: string | Uint8Array; contentType?: string } = {},
): Promise<{ status: number; text: string }> {
  const url = new URL(`${stack.managementBaseUrl}/projects/${stack.projectId}${path}`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          authorization: `Bearer ${stack.managementKey}`,
          'content-type': options.contentType ?? 'application/json',
          ...(options.body instanceof Uint8Array ? { 'content-length': String(options.body.length) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export async function managementJson<T>(
  stack: RealStack,
  path: string,
  options: { method?: string; body?: unknown; raw?: Uint8Array; contentType?: string } = {},
): Promise<T> {
  const { status, text } = await callManagement(stack, path, {
    ...(options.method ? { method: options.method } : {}),
    ...(options.raw ? { body: options.raw } : options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    ...(options.contentType ? { contentType: options.contentType } : {}),
  });
  if (status >= 300) throw new Error(`${path}: ${status} ${text}`);
  return JSON.parse(text) as T;
}

/** Stubs `fetch`: the app's MAPI calls go to the stack; the session is one with `permissions`. */
export function routeFetchTo(stack: RealStack, permissions: string[]) {
  const writes: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.endsWith('/app/api/session'))
      return new Response(
        JSON.stringify({
          user: { id: 'u', email: 'writer@example.com' },
          csrf_token: 'csrf',
          projects: [{ id: stack.projectId, name: 'Demo', roles: [], permissions }],
        }),
        { status: 200 },
      );
    const rest = url.replace(/^.*\/app\/api\/v2\/projects\/[^/]+/, '');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : undefined;
    if (method !== 'GET')
      writes.push({ method, path: rest, body: body === undefined ? undefined : (JSON.parse(body) as unknown) });
    const answer = await callManagement(stack, rest, { method, ...(body === undefined ? {} : { body }) });
    return new Response(answer.text === '' ? null : answer.text, { status: answer.status });
  });
  return writes;
}
