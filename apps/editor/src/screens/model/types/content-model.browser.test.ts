import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { createDeliveryClient } from '@kontent-ai/delivery-sdk';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  startEditorStack,
  type EditorStack,
} from '../../../../test/harness.ts';

/*
 * The content model in Chromium against `lectern start` (demo project): a Developer builds a
 * snippet and two types entirely in the browser (several element kinds, a content group, the
 * reorder by keyboard and by drag), creates an item of one in the item editor, publishes it and
 * reads it through the delivery SDK; the model editor shows the Management API's own refusals
 * for the same invalid models (POST and PATCH); removing an element that holds values asks
 * first, naming the item; a Reviewer sees the model read-only. axe on every screen.
 */

const password = 'correct horse battery staple';

type TypeJson = {
  id: string;
  codename: string;
  elements: Record<string, unknown>[];
  content_groups: { id: string; name: string }[];
};

describe.skipIf(chromiumPath === null)('content model', () => {
  let stack: EditorStack;
  let browser: Browser;
  let page: Page;
  let reviewer: Page;
  let base: string;
  let postTypeId = '';

  const status = () => page.locator('.model-status').textContent();
  const card = (n: number | 'last'): Locator =>
    n === 'last' ? page.locator('.element-card').last() : page.locator('.element-card').nth(n);
  const cardTitles = () => page.locator('.element-card h3').allTextContents();
  const audit = async (p: Page, where: string) => expect([where, await axeViolations(p)]).toEqual([where, []]);
  const addElement = async (kind: string, name: string) => {
    const before = await page.locator('.element-card').count();
    await page.getByRole('button', { name: `Add ${kind}`, exact: true }).click();
    await expect.poll(() => page.locator('.element-card').count()).toBe(before + 1);
    const added = card(before);
    if (name) await added.getByLabel('Name', { exact: true }).fill(name);
    return added;
  };
  const save = async () => {
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(status, { timeout: 15_000 }).toMatch(/is saved|not saved|no changes/);
  };
  const newDefinition = async (area: 'Content types' | 'Content type snippets', name: string) => {
    await page.getByRole('navigation', { name: 'Content model' }).getByRole('link', { name: area }).click();
    await page.getByRole('link', { name: 'Create new' }).click();
    await page.locator('.type-fields').getByLabel('Name', { exact: true }).fill(name);
  };

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    base = `${stack.appUrl}/p/${stack.projectId}/default`;
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (e) => console.log('page error:', e.message));
    await acceptInvitation(page, await stack.invite('developer@example.com', 'developer'), password);
    reviewer = await (await browser.newContext()).newPage();
    await acceptInvitation(reviewer, await stack.invite('reviewer@example.com', 'reviewer'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('builds a snippet and two types in the browser, reordering by keyboard and by drag', async () => {
    await page.goto(`${base}/content`);
    await page.getByRole('link', { name: 'Content model' }).click();
    await page.getByRole('heading', { name: 'Content types', level: 1 }).waitFor();
    await audit(page, 'content types');

    await newDefinition('Content type snippets', 'Social');
    expect(await page.locator('.type-fields').getByLabel('Codename').inputValue()).toBe('social');
    await addElement('Text', 'Share text');
    await save();
    expect(await status()).toContain('The content type snippet Social is saved.');
    await page.waitForURL(/\/model\/snippets\/[0-9a-f-]{36}$/);

    await newDefinition('Content types', 'Writer');
    await page.getByRole('button', { name: 'Add content group' }).click();
    await page.getByLabel('Group 1 name').fill('Profile');
    const fullName = await addElement('Text', 'Full name');
    await fullName.getByLabel('Required').check();
    await save();
    expect(await status()).toContain('The content type Writer is saved.');

    await newDefinition('Content types', 'Blog post');
    const title = await addElement('Text', 'Title');
    await title.getByRole('group', { name: 'Limit text length' }).getByLabel('Value').fill('80');
    await addElement('Date & time', 'Published on');
    const tone = await addElement('Multiple choice', 'Tone');
    for (const option of ['Calm', 'Loud']) {
      await tone.getByRole('button', { name: 'Add option' }).click();
      await tone
        .getByLabel(/^Option \d name$/)
        .last()
        .fill(option);
    }
    const authors = await addElement('Linked items', 'Authors');
    await authors
      .getByRole('group', { name: /^Allowed content types/ })
      .getByLabel('Writer')
      .check();
    const slug = await addElement('URL slug', 'Slug');
    await slug.getByLabel('Auto-generate from').selectOption({ label: 'Title' });
    const social = await addElement('Content type snippet', '');
    await social.getByLabel('Snippet', { exact: true }).selectOption({ label: 'Social' });
    await addElement('Number', 'Reading time');
    await audit(page, 'type editor, new type');

    // Keyboard: "Reading time" (last of 7) up twice with Enter on its "Move up" button.
    const up = card(6).getByRole('button', { name: 'Move up Reading time' });
    await up.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await status()).toContain('Reading time moved to position 5 of 7.');
    // Drag: "Published on" dropped onto "Title" goes before it. The HTML5 drag events are
    // dispatched (headless Chromium does not start a native drag from the mouse here).
    const handle = await card(1).getByRole('img', { name: 'Drag Published on' }).elementHandle();
    const target = await card(0).elementHandle();
    if (!handle || !target) throw new Error('no drag handle or target');
    const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
    await handle.dispatchEvent('dragstart', { dataTransfer });
    await target.dispatchEvent('dragover', { dataTransfer });
    await target.dispatchEvent('drop', { dataTransfer });
    await handle.dispatchEvent('dragend', { dataTransfer });
    expect(await cardTitles()).toEqual([
      'Published on',
      'Title',
      'Tone',
      'Authors',
      'Reading time',
      'Slug',
      'Social (snippet)',
    ]);
    await save();
    expect(await status()).toContain('The content type Blog post is saved.');
    postTypeId = /\/model\/types\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? '';
    await audit(page, 'type editor, saved type');
    await screenshot(page, 'type-editor');

    const post = (await stack.mapi<TypeJson>(`/types/${postTypeId}`)).json;
    expect(post.elements.map((e) => [e['codename'], e['type']])).toEqual([
      ['published_on', 'date_time'],
      ['title', 'text'],
      ['tone', 'multiple_choice'],
      ['authors', 'modular_content'],
      ['reading_time', 'number'],
      ['slug', 'url_slug'],
      [expect.any(String), 'snippet'],
    ]);
    const byCodename = (c: string) => post.elements.find((e) => e['codename'] === c) ?? {};
    expect(byCodename('title')['maximum_text_length']).toEqual({ value: 80, applies_to: 'characters' });
    expect((byCodename('tone')['options'] as { name: string }[]).map((o) => o.name)).toEqual(['Calm', 'Loud']);
    expect(byCodename('slug')['depends_on']).toEqual({ element: { id: byCodename('title')['id'] } });
    const author = (await stack.mapi<TypeJson>('/types/codename/writer')).json;
    expect(author.content_groups.map((g) => g.name)).toEqual(['Profile']);
    expect(byCodename('authors')['allowed_content_types']).toEqual([{ id: author.id }]);

    await page.getByRole('navigation', { name: 'Content model' }).getByRole('link', { name: 'Content types' }).click();
    await page.getByRole('link', { name: 'Blog post' }).waitFor();
    await screenshot(page, 'content-types');
  });

  it('shows the same refusals as the Management API for the same invalid models', async () => {
    await newDefinition('Content types', 'Broken');
    const headline = await addElement('Text', 'Headline');
    await headline.getByRole('group', { name: 'Limit text length' }).getByLabel('Value').fill('0');
    await addElement('URL slug', 'Path');
    const widget = await addElement('Custom element', 'Widget');
    await widget.getByLabel('Hosted code URL (HTTPS)').fill('not a url');
    await widget.getByLabel('Parameters {JSON}').fill('{bad');
    await save();
    expect(await status()).toContain('not saved');
    const posted = await stack.mapi<{ validation_errors: { path: string; message: string }[] }>('/types', {
      method: 'POST',
      body: {
        name: 'Broken',
        codename: 'broken',
        elements: [
          {
            type: 'text',
            name: 'Headline',
            codename: 'headline',
            maximum_text_length: { value: 0, applies_to: 'characters' },
          },
          { type: 'url_slug', name: 'Path', codename: 'path', depends_on: null },
          { type: 'custom', name: 'Widget', codename: 'widget', source_url: 'not a url', json_parameters: '{bad' },
        ],
      },
    });
    expect(posted.status).toBe(400);
    const expected: string[][] = [[], [], []];
    for (const v of posted.json.validation_errors) {
      const m = /^elements\[(\d)\]\.(.*)$/.exec(v.path);
      expected[Number(m?.[1])]?.push(`${m?.[2]}: ${v.message}`);
    }
    expect(expected.every((list) => list.length > 0)).toBe(true);
    for (const [i, messages] of expected.entries())
      expect(await card(i).locator('.model-errors li').allTextContents()).toEqual(messages);
    await audit(page, 'type editor with refusals');

    // PATCH: an invalid regex on the saved type's Title.
    await page.goto(`${base}/model/types/${postTypeId}`);
    const title = card(1);
    await title.getByRole('group', { name: 'Validation regex' }).getByLabel('Pattern').fill('(');
    await save();
    const patched = await stack.mapi<{ validation_errors: { message: string }[] }>(`/types/${postTypeId}`, {
      method: 'PATCH',
      body: [
        {
          op: 'replace',
          path: '/elements/codename:title/validation_regex',
          value: { regex: '(', flags: null, validation_message: '', is_active: true },
        },
      ],
    });
    expect(patched.status).toBe(400);
    const patchMessages = patched.json.validation_errors.map((v) =>
      v.message.replace(/^Invalid operation with index '\d+': elements\[\d+\]\./, ''),
    );
    expect(await title.locator('.model-errors li').allTextContents()).toEqual(patchMessages);
  });

  it('creates content with the new type in the item editor and the delivery SDK reads it', async () => {
    await page.goto(`${base}/content`);
    await page.getByRole('button', { name: 'Create new' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new content item' });
    await dialog.getByLabel('Content type').selectOption({ label: 'Blog post' });
    await dialog.getByLabel('Name').fill('Hello model');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/items\/[0-9a-f-]{36}$/);
    await page.getByLabel('Title', { exact: true }).fill('Hello from the browser');
    await page.getByLabel('Reading time').fill('4');
    await page.getByLabel('Calm').check();
    await page.getByLabel('Share text').fill('Hello social');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#item-save-status').textContent(), { timeout: 15_000 }).toBe('Saved');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('dialog', { name: 'Publish' }).getByRole('button', { name: 'Publish' }).click();

    const client = createDeliveryClient({
      environmentId: stack.projectId,
      proxy: { baseUrl: stack.urls['delivery'] ?? '' },
    });
    const read = async () => {
      try {
        return (await client.item('hello_model').toPromise()).data.item;
      } catch {
        return null;
      }
    };
    await expect
      .poll(async () => (await read())?.system.workflowStep ?? 'not delivered', { timeout: 20_000 })
      .toBe('published');
    const item = await read();
    expect(item?.system.type).toBe('blog_post');
    expect(item?.elements['title']?.value).toBe('Hello from the browser');
    expect(item?.elements['reading_time']?.value).toBe(4);
    expect((item?.elements['tone']?.value as { codename: string }[]).map((o) => o.codename)).toEqual(['calm']);
    expect(item?.elements['slug']?.value).toBe('hello-from-the-browser');
    expect(item?.elements['social__share_text']?.value).toBe('Hello social');
  });

  it('names the items a breaking change affects before saving it', async () => {
    await page.goto(`${base}/model/types/${postTypeId}`);
    await card(4).getByRole('button', { name: 'Remove Reading time' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'This change affects existing content' });
    await dialog.getByRole('link', { name: 'Hello model' }).waitFor();
    expect(await dialog.textContent()).toContain(
      "The element 'Reading time' is removed; its values are lost. 1 item(s), 1 variant(s)",
    );
    await audit(page, 'impact dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const post = (await stack.mapi<TypeJson>(`/types/${postTypeId}`)).json;
    expect(post.elements.map((e) => e['codename'])).toContain('reading_time');

    // Deleting a type with items: the server's refusal, in its words, in the dialog.
    await page.goto(`${base}/model/types`);
    await page.getByRole('button', { name: 'Delete Blog post' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete content type?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect
      .poll(() => confirm.getByRole('alert').textContent())
      .toMatch(/^Type 'blog_post' is still used by 1 content item\(s\) \('hello_model'\) and cannot be deleted/);
    await audit(page, 'delete dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await stack.mapi(`/types/${postTypeId}`)).status).toBe(200);
  });

  it('is read-only for a Reviewer', async () => {
    await reviewer.goto(`${base}/model/types/${postTypeId}`);
    await reviewer.getByText('Read-only: your role may not change the content model.').waitFor();
    expect(await reviewer.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await reviewer.locator('.type-fields').getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await reviewer.getByRole('button', { name: /^Move up/ }).count()).toBe(0);
    await audit(reviewer, 'type editor, read-only');
    await reviewer.goto(`${base}/model/types`);
    await reviewer.getByRole('link', { name: 'Blog post' }).waitFor();
    expect(await reviewer.getByRole('link', { name: 'Create new' }).count()).toBe(0);
  });
});
