import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  startEditorStack,
  type EditorStack,
} from '../../../../test/harness.ts';
import { startSmtpSink, type SmtpSink } from '../../../../test/smtp-sink.ts';

/*
 * The "comment" scenario of issue 31 in Chromium against `lectern start` with an SMTP sink: a
 * writer comments on a selection of rich text and mentions a reviewer, who gets the e-mail; the
 * reviewer (read-only role) replies and the writer sees it arrive live; text inserted before
 * the selection leaves the comment on it (while editing, after Save and after a reload), the
 * stored value stays plain Kontent.ai rich text; the thread is resolved (collapsed), axe clean.
 */

const password = 'correct horse battery staple';
const publicUrl = 'http://editor.lectern.test';
const quote = 'new pricing page';

/** A raw e-mail's text with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Selects the first occurrence of `text` in the rich text (ProseMirror follows the DOM selection). */
async function selectText(page: Page, text: string): Promise<void> {
  await page.locator('.rt-content').click();
  await page.evaluate((wanted) => {
    const root = document.querySelector('.rt-content');
    if (root === null) throw new Error('no rich text');
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const at = (node.textContent ?? '').indexOf(wanted);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return;
    }
    throw new Error(`no "${wanted}" in the text`);
  }, text);
}

const highlighted = (page: Page) => page.locator('.rt-commented').allTextContents();

describe.skipIf(chromiumPath === null)('comment', () => {
  let sink: SmtpSink;
  let stack: EditorStack;
  let browser: Browser;
  let writer: Page;
  let reviewer: Page;
  let itemId: string;
  let itemUrl: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    [stack, browser] = await Promise.all([
      startEditorStack(undefined, { env: { LECTERN_SMTP_URL: sink.url, LECTERN_MANAGEMENT_PUBLIC_URL: publicUrl } }),
      launchBrowser(),
    ]);
    const type = await stack.mapi('/types', {
      method: 'POST',
      body: {
        name: 'Plan',
        codename: 'plan',
        elements: [
          { name: 'Title', codename: 'title', type: 'text' },
          { name: 'Body', codename: 'body', type: 'rich_text' },
        ],
      },
    });
    expect(type.status).toBe(201);
    const item = await stack.mapi<{ id: string }>('/items', {
      method: 'POST',
      body: { name: 'Launch plan', type: { codename: 'plan' } },
    });
    itemId = item.json.id;
    await stack.mapi(`/items/${itemId}/variants/codename/default`, {
      method: 'PUT',
      body: {
        elements: [
          { element: { codename: 'title' }, value: 'Launch plan' },
          { element: { codename: 'body' }, value: '<p>We launch on Monday with the new pricing page.</p>' },
        ],
      },
    });
    itemUrl = `${stack.appUrl}/p/${stack.projectId}/default/items/${itemId}`;
    // Links name the public URL (set for the e-mails); the browser reaches the local server.
    const invite = async (email: string, role: string) =>
      (await stack.invite(email, role)).replace(publicUrl, stack.origin);
    writer = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await acceptInvitation(writer, await invite('writer@example.com', 'content-creator'), password);
    reviewer = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await acceptInvitation(reviewer, await invite('reviewer@example.com', 'reviewer'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await sink?.close();
  });

  it('comments on a selection with a mention (e-mailed), gets a reply live, keeps the anchor, resolves', async () => {
    await writer.goto(itemUrl);
    await writer.getByRole('heading', { name: 'Comments' }).waitFor();
    await selectText(writer, quote);
    const commentTool = writer.getByRole('button', { name: 'Comment on the selected text' });
    await expect.poll(() => commentTool.getAttribute('aria-disabled')).toBeNull();
    await commentTool.click();

    const box = writer.getByLabel('Comment', { exact: true });
    await expect.poll(() => writer.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await box.pressSequentially('Is this page ready, @rev');
    await writer.getByRole('button', { name: 'Mention reviewer@example.com' }).click();
    await box.pressSequentially('?');
    expect(await box.inputValue()).toBe('Is this page ready, @reviewer@example.com ?');
    await writer.getByRole('button', { name: 'Comment', exact: true }).click();

    const thread = writer.locator('article.comment-thread');
    await thread.getByText('Is this page ready, @reviewer@example.com ?').waitFor();
    expect(await thread.locator('blockquote').textContent()).toBe(quote);
    expect(await highlighted(writer)).toEqual([quote]);

    // The reviewer is told by e-mail, with a link to the item.
    await expect.poll(() => sink.mails.length, { timeout: 15_000 }).toBe(1);
    const mail = sink.mails[0]!;
    expect(mail.to).toEqual(['reviewer@example.com']);
    expect(decoded(mail.raw)).toContain('writer@example.com mentioned you in a comment on Launch plan (Body)');
    expect(decoded(mail.raw)).toContain(`${publicUrl}/app/p/${stack.projectId}/default/items/${itemId}`);

    // The reviewer (who may not edit) replies; the writer's open page shows it without a reload.
    await reviewer.goto(itemUrl);
    const reviewerThread = reviewer.locator('article.comment-thread');
    await reviewerThread.getByText('Is this page ready').waitFor();
    await reviewerThread.getByLabel('Reply').fill('Yes, checked it this morning.');
    await reviewerThread.getByRole('button', { name: 'Reply', exact: true }).click();
    await thread.getByText('Yes, checked it this morning.').waitFor({ timeout: 15_000 });

    // Text typed before the selection: the comment stays on it, in the editor and after Save.
    await writer.locator('.rt-content').click();
    await writer.keyboard.press('Control+Home');
    await writer.keyboard.type('Update: ');
    expect(await highlighted(writer)).toEqual([quote]);
    await writer.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => writer.locator('#item-save-status').textContent(), { timeout: 15_000 }).toBe('Saved');
    const variant = await stack.mapi<{ elements: { value: unknown }[] }>(`/items/${itemId}/variants/codename/default`);
    expect(variant.json.elements.map((e) => e.value)).toContain(
      '<p>Update: We launch on Monday with the new pricing page.</p>',
    );
    await writer.reload();
    await thread.getByText('Yes, checked it this morning.').waitFor();
    await expect.poll(() => highlighted(writer)).toEqual([quote]);

    expect(await axeViolations(writer)).toEqual([]);
    await screenshot(writer, 'comments', { fullPage: false });

    // Resolved: collapsed under "Resolved (1)", the text no longer highlighted; the API agrees.
    await thread.getByRole('button', { name: 'Resolve' }).click();
    const resolved = writer.locator('details.comments-resolved');
    await resolved.locator('summary', { hasText: 'Resolved (1)' }).waitFor();
    expect(await resolved.getAttribute('open')).toBeNull();
    expect(await writer.getByText('Yes, checked it this morning.').isVisible()).toBe(false);
    await expect.poll(() => highlighted(writer)).toEqual([]);
    const listed = await stack.mapi<{ threads: { is_resolved: boolean; comments: unknown[] }[] }>(
      `/items/${itemId}/variants/codename/default/comments`,
    );
    expect(listed.json.threads.map((t) => [t.is_resolved, t.comments.length])).toEqual([[true, 2]]);
    expect(await axeViolations(writer)).toEqual([]);
  }, 120_000);

  it('lets a read-only reviewer comment on a whole element, and on selected text', async () => {
    await reviewer.goto(itemUrl);
    await reviewer.getByRole('button', { name: 'Comment on Title' }).click();
    await reviewer.getByLabel('Comment', { exact: true }).fill('Shorter title?');
    await reviewer.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = reviewer.locator('article.comment-thread', { hasText: 'Shorter title?' });
    await thread.waitFor();
    await reviewer.getByRole('button', { name: 'Comment on Title, 1 open thread', exact: true }).waitFor();
    expect(await thread.locator('h3').textContent()).toBe('Title');

    // The text is read-only for a Reviewer: its toolbar is off, a button of its own comments.
    const onSelection = reviewer.getByRole('button', { name: 'Comment on the selected text' });
    expect(await onSelection.getAttribute('aria-disabled')).toBe('true');
    await selectText(reviewer, 'Monday');
    await expect.poll(() => onSelection.getAttribute('aria-disabled')).toBeNull();
    await onSelection.click();
    await reviewer.getByLabel('Comment', { exact: true }).fill('Which Monday?');
    await reviewer.getByRole('button', { name: 'Comment', exact: true }).click();
    const onText = reviewer.locator('article.comment-thread', { hasText: 'Which Monday?' });
    await onText.waitFor();
    expect(await onText.locator('blockquote').textContent()).toBe('Monday');
    await expect.poll(() => highlighted(reviewer)).toEqual(['Monday']);
    expect(await axeViolations(reviewer)).toEqual([]);
  }, 60_000);
});
