import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  signIn,
  startEditorStack,
  type EditorStack,
} from '../../../test/harness.ts';

/*
 * Signing in, in Chromium against `lectern start`: an invitation accepted with a new password, the
 * screen asked for reached after sign-in, a wrong password and the throttle told apart, sign-out
 * here and everywhere, and all of it by keyboard alone.
 */

const email = 'writer@example.com';
const password = 'correct horse battery staple';

describe.skipIf(chromiumPath === null)('signing in to the editor', () => {
  let stack: EditorStack;
  let browser: Browser;
  let contentUrl: string;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    contentUrl = `${stack.appUrl}/p/${stack.projectId}/default/content`;
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const newPage = async (): Promise<Page> => (await browser.newContext()).newPage();

  it('accepts an invitation: shows the e-mail, takes a password, signs in and opens the only project', async () => {
    const invitation = await stack.invite(email, 'content-creator');
    const page = await newPage();
    await page.goto(invitation);
    await expect.poll(() => page.getByLabel('E-mail').inputValue()).toBe(email);
    // The token left the address bar once read.
    expect(new URL(page.url()).hash).toBe('');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'accept-invitation');
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Confirm the password').fill('short');
    await page.getByRole('button', { name: /sign in/i }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('at least 10 characters');
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('Confirm the password').fill(password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL(contentUrl);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Content inventory');
    expect(await page.getByRole('banner').textContent()).toContain(email);
    await page.context().close();

    // Used up: the same link cannot be used again.
    const again = await newPage();
    await again.goto(invitation);
    await expect.poll(() => again.getByRole('heading', { level: 1 }).textContent()).toBe('This link cannot be used');
    await again.context().close();
  });

  it('sends a signed-out person to sign in, then to the screen they asked for; a wrong password is told', async () => {
    const page = await newPage();
    await page.goto(`${contentUrl}?sort=name&dir=asc`);
    await page.waitForURL(/\/app\/sign-in\?next=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to Lectern');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');
    await signIn(page, email, 'not the password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or the password is not right.');
    await signIn(page, email, password);
    await page.waitForURL(`${contentUrl}?sort=name&dir=asc`);
    // A signed-in person who opens the sign-in screen goes on.
    await page.goto(`${stack.appUrl}/sign-in`);
    await page.waitForURL(contentUrl);
    await page.context().close();
  });

  it('asks for a reset link from "Forgot password?" and says what happens next', async () => {
    const page = await newPage();
    await page.goto(`${stack.appUrl}/sign-in`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('a link to choose a new password');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('signs out here, and everywhere', async () => {
    const [first, second] = [await newPage(), await newPage()];
    for (const page of [first, second]) {
      await page.goto(contentUrl);
      await signIn(page, email, password);
      await page.waitForURL(contentUrl);
    }
    await first.getByRole('button', { name: 'Sign out', exact: true }).click();
    await first.waitForURL(/\/app\/sign-in/);
    await second.reload();
    await expect.poll(() => second.getByRole('heading', { level: 1 }).textContent()).toBe('Content inventory');
    await signIn(first, email, password);
    await first.waitForURL(/\/app\/(p\/|$)/);
    await first.getByRole('button', { name: 'Sign out everywhere' }).click();
    await first.waitForURL(/\/app\/sign-in/);
    await second.reload();
    await second.waitForURL(/\/app\/sign-in/);
    await first.context().close();
    await second.context().close();
  });

  it('signs in and reaches the inventory by keyboard alone', async () => {
    const page = await newPage();
    await page.goto(`${stack.appUrl}/sign-in`);
    // The form is rendered once the app's script has run (after the load event, under load).
    await page.getByLabel('E-mail').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sign-in-email');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL(contentUrl);
    await expect.poll(() => page.getByRole('button', { name: 'Create new' }).isEnabled()).toBe(true);
    // The first stop is the skip link; it leads past the header to the screen.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(focused).toBe('Create new');
    await page.context().close();
  });

  it('locks a client out after repeated wrong passwords, and says for how long', async () => {
    const page = await newPage();
    await page.goto(`${stack.appUrl}/sign-in`);
    for (let i = 0; i < 5; i++) {
      await signIn(page, email, `wrong password ${i}`);
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or the password is not right.');
      await page.getByRole('button', { name: 'Sign in' }).isEnabled();
    }
    await signIn(page, email, password);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Too many failed sign-ins.*\d+ seconds/);
    await page.context().close();
  });
});
