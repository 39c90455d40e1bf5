import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/*
 * Test helpers for the console's end-to-end tests: Debian's Chromium (installed by
 * scripts/lib/browser.sh) driven by playwright-core, and where the screenshots go.
 */

/** The Chromium on PATH, or null. */
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

export async function launchChromium(executablePath: string): Promise<Browser> {
  // The sandbox needs user namespaces, which CI containers running as root do not give.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * Where the screenshots go: docs/console/ (the README's) with LECTERN_UPDATE_SCREENSHOTS=1, else a
 * temporary folder, so that a test run leaves the tree as it was.
 */
export const screenshotDir =
  process.env['LECTERN_UPDATE_SCREENSHOTS'] === '1'
    ? fileURLToPath(new URL('../../../../docs/console/', import.meta.url))
    : join(tmpdir(), 'lectern-console-screenshots/');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}${name}.png`, fullPage: true, animations: 'disabled' });
}
