import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';

/*
 * The editor's end-to-end harness: `lectern start` as a separate process (the real CLI, a fresh
 * data directory, the demo project, rate limits off for seeding), Debian's Chromium driven by
 * playwright-core, people invited with the operator's CLI (`lectern users invite`, which prints an
 * invitation link) and signed up in the browser, axe-core on every screen, and screenshots.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cliPath = join(root, 'services/lectern/src/cli.ts');

/** The Chromium on PATH (scripts/lib/browser.sh installs Debian's), or null. */
export function findChromium(): string | null {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
    } catch {
      // not this one
    }
  }
  return null;
}

export const chromiumPath = findChromium();
if (chromiumPath === null) {
  if (process.env['CI'] === 'true') throw new Error('chromium is missing: scripts/lib/browser.sh installs it');
  console.warn('SKIPPING the editor browser tests: no chromium on PATH (./scripts/test installs it)');
}

export async function launchBrowser(): Promise<Browser> {
  // The sandbox needs user namespaces, which CI containers running as root do not give.
  return chromium.launch({
    executablePath: chromiumPath ?? 'chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

export interface EditorStack {
  readonly dataDir: string;
  /** The Management origin, e.g. http://127.0.0.1:40123. */
  readonly origin: string;
  /** The app: `${origin}/app`. */
  readonly appUrl: string;
  /** Every listener `lectern start` printed, by name (`delivery`, `preview`, `assets`…). */
  readonly urls: Readonly<Record<string, string>>;
  readonly projectId: string;
  readonly managementKey: string;
  /** A Management API v2 call on the demo project with its management key. */
  mapi<T = Record<string, unknown>>(path: string, init?: { method?: string; body?: unknown }): Promise<MapiAnswer<T>>;
  /** Invites `email` in `role` with `lectern users invite`; answers the invitation link it prints. */
  invite(email: string, role: string): Promise<string>;
  stop(): Promise<void>;
}

export interface MapiAnswer<T> {
  readonly status: number;
  readonly json: T;
}

interface StartSummary {
  readonly urls: Record<string, string>;
  readonly demo: { project_id: string; keys: { kind: string; api_key: string }[] } | null;
}

function run(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`lectern ${args.join(' ')} exited ${code}:\n${err}${out}`)),
    );
  });
}

/**
 * Starts `lectern start --json` and waits for its summary line: on a fresh data directory with
 * the demo project (removed by `stop`), or on `existing` (a data directory and the project to
 * work on, kept). `env` adds settings (LECTERN_SMTP_URL…).
 */
export async function startEditorStack(
  existing?: { dataDir: string; projectId: string },
  options: { env?: Readonly<Record<string, string>> } = {},
): Promise<EditorStack> {
  const dataDir = existing?.dataDir ?? mkdtempSync(join(tmpdir(), 'lectern-editor-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [cliPath, 'start', '--json', '--port-base', '0', '--data-dir', dataDir],
    {
      env: {
        ...process.env,
        LECTERN_LOG_LEVEL: 'warn',
        // Seeding goes through the Management API: its per-key limits would make it slow.
        LECTERN_MANAGEMENT_PER_SECOND: '0',
        LECTERN_MANAGEMENT_PER_MINUTE: '0',
        LECTERN_MANAGEMENT_PER_HOUR: '0',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const summary = await new Promise<StartSummary>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{"data_dir"')) resolve(JSON.parse(line) as StartSummary);
    });
    void exited.then((code) => reject(new Error(`lectern start exited (${code}) before it was ready:\n${stderr}`)));
  });
  const origin = summary.urls['management'] ?? '';
  const projectId = existing?.projectId ?? summary.demo?.project_id ?? '';
  const managementKey = summary.demo?.keys.find((k) => k.kind === 'management')?.api_key ?? '';
  return {
    dataDir,
    origin,
    appUrl: `${origin}/app`,
    urls: summary.urls,
    projectId,
    managementKey,
    async mapi<T>(path: string, init: { method?: string; body?: unknown } = {}) {
      const response = await fetch(`${origin}/v2/projects/${projectId}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${managementKey}`, 'content-type': 'application/json' },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await response.text();
      return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
    },
    async invite(email: string, role: string) {
      const out = await run(['users', 'invite', projectId, email, '--role', role, '--data-dir', dataDir, '--json']);
      const url = /https?:\/\/[^\s"]+\/app\/accept#[\w-]+/.exec(out)?.[0];
      if (!url) throw new Error(`lectern users invite printed no invitation link:\n${out}`);
      return url;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      if (!existing) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens the invitation link, chooses `password` twice and lands signed in. */
export async function acceptInvitation(page: Page, invitationUrl: string, password: string): Promise<void> {
  await page.goto(invitationUrl);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Confirm the password').fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/app/accept'));
}

/** Signs in on the sign-in screen (the page is anywhere in the app). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: number;
}

/**
 * The serious and critical axe-core violations of the page as it is now (WCAG 2.1 A and AA and
 * best practices). axe is evaluated through the driver, not injected as a script: the app's CSP
 * refuses inline scripts, and should.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  const results = await page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const found = await run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return found.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.length }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Where screenshots go: docs/editor/ with LECTERN_UPDATE_SCREENSHOTS=1 (then look at them before
 * committing), else a temporary folder, so a test run leaves the tree as it was.
 */
export const screenshotDir =
  process.env['LECTERN_UPDATE_SCREENSHOTS'] === '1'
    ? join(root, 'docs/editor/')
    : join(tmpdir(), 'lectern-editor-screenshots/');

/** The whole page, or with `fullPage: false` the viewport (a modal dialog over what is in view). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({
    path: `${screenshotDir}${name}.png`,
    fullPage: options.fullPage ?? true,
    animations: 'disabled',
  });
}

/**
 * A content type "Note" (one text element) and `count` items of it, each with its variant in the
 * default language, through the Management API (as any client would); `prefix` names them.
 */
export async function seedNotes(
  stack: EditorStack,
  options: { count: number; prefix: string },
): Promise<{ typeId: string; itemIds: string[] }> {
  let type = await stack.mapi<{ id: string }>('/types/codename/note');
  if (type.status === 404)
    type = await stack.mapi<{ id: string }>('/types', {
      method: 'POST',
      body: { name: 'Note', codename: 'note', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
    });
  const itemIds: string[] = [];
  // A few at a time: the server does one write at a time anyway on PGlite.
  for (let start = 0; start < options.count; start += 8) {
    const batch = Array.from({ length: Math.min(8, options.count - start) }, (_, i) => start + i);
    const ids = await Promise.all(
      batch.map(async (n) => {
        const name = `${options.prefix} ${String(n).padStart(3, '0')}`;
        const item = await stack.mapi<{ id: string }>('/items', {
          method: 'POST',
          body: { name, type: { codename: 'note' } },
        });
        if (item.status !== 201) throw new Error(`item ${name}: ${item.status} ${JSON.stringify(item.json)}`);
        const variant = await stack.mapi(`/items/${item.json.id}/variants/codename/default`, {
          method: 'PUT',
          body: { elements: [{ element: { codename: 'title' }, value: name }] },
        });
        if (variant.status >= 300) throw new Error(`variant of ${name}: ${variant.status}`);
        return item.json.id;
      }),
    );
    itemIds.push(...ids);
  }
  return { typeId: type.json.id, itemIds };
}
