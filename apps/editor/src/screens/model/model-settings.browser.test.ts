import { createDeliveryClient } from '@kontent-ai/delivery-sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  startEditorStack,
  type EditorStack,
} from '../../../test/harness.ts';

/*
 * "content model": a Project manager builds, entirely in the browser, a taxonomy group with
 * nested terms (re-parented by keyboard and by drag), a workflow with a custom step, colour and
 * role, a collection, a language with a fallback and a preview URL; each is then read through
 * the Management API, and the taxonomy through the delivery SDK. A refusal is shown at its field
 * in the Management API's own words; a Reviewer sees it all read-only. axe on every screen.
 * The steps share one stack and run in order.
 */

const password = 'correct horse battery staple';

interface Term {
  name: string;
  codename: string;
  terms: Term[];
}
const shape = (terms: readonly Term[]): unknown => terms.map((t) => ({ [t.codename]: shape(t.terms) }));

describe.skipIf(chromiumPath === null)('content model', () => {
  let stack: EditorStack;
  let browser: Browser;
  let page: Page;
  let base: string;

  const open = async (screen: string, heading: string) => {
    await page.goto(`${base}/model/${screen}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
  const taxonomy = async () => (await stack.mapi<{ terms: Term[] }>('/taxonomies/codename/coffee_kinds')).json;
  const termOrder = () => page.locator('.term-name').allTextContents();

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    base = `${stack.appUrl}/p/${stack.projectId}/default`;
    page = await (await browser.newContext()).newPage();
    await acceptInvitation(page, await stack.invite('lead@example.com', 'project-manager'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('builds a taxonomy group with nested terms, re-parented by keyboard and by drag', async () => {
    await open('taxonomies', 'Taxonomies');
    const newGroup = page.getByRole('form', { name: 'New taxonomy group' });
    await newGroup.getByLabel('Name', { exact: true }).fill('Coffee kinds');
    await newGroup.getByRole('button', { name: 'Create taxonomy group' }).click();
    await page.getByRole('heading', { level: 2, name: 'Coffee kinds' }).waitFor();
    const newTerm = page.getByRole('form', { name: 'New term' });
    for (const name of ['Espresso', 'Filter', 'Ristretto', 'Cold brew']) {
      await newTerm.getByLabel('Name', { exact: true }).fill(name);
      await newTerm.getByRole('button', { name: 'Add term' }).click();
      await page.locator('.term-name', { hasText: name }).waitFor();
      // The form empties itself once the new term is in the list.
      await expect.poll(() => newTerm.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    }
    expect(await termOrder()).toEqual(['Espresso', 'Filter', 'Ristretto', 'Cold brew']);

    // Keyboard: Ristretto up above Filter, then Right: under Espresso. Focus stays on its handle.
    await page.getByRole('button', { name: 'Move Ristretto' }).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(termOrder).toEqual(['Espresso', 'Ristretto', 'Filter', 'Cold brew']);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move Ristretto');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('list', { name: 'Terms under Espresso' }).getByText('Ristretto', { exact: true }).waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move Ristretto');

    // Drag: Cold brew onto Filter.
    await page.getByRole('button', { name: 'Move Cold brew' }).dragTo(page.locator('.term-row', { hasText: 'Filter' }));
    await page.getByRole('list', { name: 'Terms under Filter' }).getByText('Cold brew', { exact: true }).waitFor();
    // Drag onto a term's top edge: before it. Then back with Down from the keyboard.
    await page
      .getByRole('button', { name: 'Move Filter' })
      .dragTo(page.locator('.term-row', { hasText: 'Espresso' }), { targetPosition: { x: 120, y: 2 } });
    await expect.poll(termOrder).toEqual(['Filter', 'Cold brew', 'Espresso', 'Ristretto']);
    await page.getByRole('button', { name: 'Move Filter' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(termOrder).toEqual(['Espresso', 'Ristretto', 'Filter', 'Cold brew']);
    expect(shape((await taxonomy()).terms)).toEqual([
      { espresso: [{ ristretto: [] }] },
      { filter: [{ cold_brew: [] }] },
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'taxonomy');
  });

  it("shows the Management API's refusal next to the field it concerns", async () => {
    await page.getByRole('button', { name: 'Rename Filter' }).click();
    const form = page.getByRole('form', { name: 'Rename Filter' });
    await form.getByLabel('Codename').fill('not a codename!');
    await form.getByRole('button', { name: 'Save' }).click();
    const problem = form.locator('.field-problem');
    await problem.first().waitFor();
    const group = await stack.mapi<{ id: string }>('/taxonomies/codename/coffee_kinds');
    const refused = await stack.mapi<{ message: string; validation_errors?: { message: string; path?: string }[] }>(
      `/taxonomies/${group.json.id}`,
      {
        method: 'PATCH',
        body: [
          { op: 'replace', reference: { codename: 'filter' }, property_name: 'codename', value: 'not a codename!' },
        ],
      },
    );
    expect(refused.status).toBe(400);
    const shown = await form.locator('.field-problem').allTextContents();
    for (const v of refused.json.validation_errors ?? []) expect(shown.join(' ')).toContain(v.message);
    expect(shown.join(' ')).toContain(refused.json.message);
    expect(await form.getByLabel('Codename').getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(shape((await taxonomy()).terms)).toEqual([
      { espresso: [{ ristretto: [] }] },
      { filter: [{ cold_brew: [] }] },
    ]);
  });

  it('reads the taxonomy through the delivery SDK', async () => {
    const client = createDeliveryClient({
      environmentId: stack.projectId,
      proxy: { baseUrl: stack.urls['delivery'] ?? '' },
    });
    const read = async () => {
      const group = (await client.taxonomy('coffee_kinds').toPromise()).data.taxonomy;
      const walk = (terms: readonly { codename: string; terms: readonly unknown[] }[]): unknown =>
        terms.map((t) => ({ [t.codename]: walk(t.terms as never) }));
      return walk(group.terms);
    };
    await expect
      .poll(() => read().catch(() => null), { timeout: 15_000 })
      .toEqual([{ espresso: [{ ristretto: [] }] }, { filter: [{ cold_brew: [] }] }]);
  });

  it('creates a workflow with a custom step, colour, role and scope', async () => {
    const roles = (await stack.mapi<{ roles: { id: string; name: string }[] }>('/roles')).json.roles;
    const manager = roles.find((r) => r.name === 'Project manager')?.id;
    const article = (await stack.mapi<{ id: string }>('/types/codename/article')).json.id;
    await open('workflows', 'Workflows');
    await page.getByRole('button', { name: 'Create new workflow' }).click();
    const form = page.getByRole('form', { name: 'New workflow' });
    await form.getByLabel('Workflow name').fill('Editorial');
    await form
      .getByRole('group', { name: 'Scope 1' })
      .getByRole('group', { name: 'Content types' })
      .getByLabel('Article')
      .check();
    await form.getByRole('button', { name: 'Add step' }).click();
    const review = form.locator('fieldset.workflow-step').nth(1);
    // A step without a name: the server's refusal is shown under that step.
    await form.getByRole('button', { name: 'Create workflow' }).click();
    await review.locator('.field-problem').waitFor();
    expect(await form.locator('fieldset.workflow-step').nth(0).locator('.field-problem').count()).toBe(0);
    expect(await review.getByLabel('Step name').getAttribute('aria-invalid')).toBe('true');
    await review.getByLabel('Step name').fill('Legal review');
    await review.getByLabel('Colour').selectOption('rose');
    await review.getByRole('group', { name: 'Roles that can work in this step' }).getByLabel('Project manager').check();
    const draft = form.locator('fieldset.workflow-step').nth(0);
    await draft.getByRole('group', { name: 'Can move to' }).getByLabel('Legal review').check();
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { level: 2, name: 'Editorial' }).waitFor();
    expect(
      await page.getByRole('list', { name: 'Steps of Editorial' }).getByRole('listitem').allTextContents(),
    ).toEqual([' Draft', ' Legal review', ' Published', ' Archived']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflows');

    type Step = {
      id: string;
      codename: string;
      color: string;
      role_ids: string[];
      transitions_to: { step: { id: string } }[];
    };
    const all = (
      await stack.mapi<{ codename: string; scopes: unknown; steps: Step[]; published_step: { id: string } }[]>(
        '/workflows',
      )
    ).json;
    const editorial = all.find((w) => w.codename === 'editorial');
    expect(editorial?.scopes).toEqual([{ content_types: [{ id: article }], collections: [] }]);
    const [first, second] = editorial?.steps ?? [];
    expect(second).toMatchObject({ codename: 'legal_review', color: 'rose', role_ids: [manager] });
    expect(first?.transitions_to.map((t) => t.step.id).sort()).toEqual(
      [second?.id, editorial?.published_step.id].sort(),
    );
  });

  it('creates a collection and moves it up', async () => {
    await open('collections', 'Collections');
    const form = page.getByRole('form', { name: 'New collection' });
    await form.getByLabel('Name', { exact: true }).fill('Marketing');
    await form.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('button', { name: 'Move up Marketing' }).click();
    await expect
      .poll(async () =>
        (await stack.mapi<{ collections: { codename: string }[] }>('/collections')).json.collections.map(
          (c) => c.codename,
        ),
      )
      .toEqual(['marketing', 'default']);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('adds a language with a fallback language', async () => {
    await open('languages', 'Localization');
    const form = page.getByRole('form', { name: 'New language' });
    await form.getByLabel('Name', { exact: true }).fill('Slovak');
    await form.getByLabel('Codename').fill('sk-SK');
    await form.getByLabel('Fallback language').selectOption({ label: 'Czech' });
    await form.getByRole('button', { name: 'Add language' }).click();
    await page.getByRole('form', { name: 'Language Slovak' }).waitFor();
    // The default language is always active and has no fallback; the others have both.
    expect(await page.getByRole('button', { name: /^(Deactivate|Activate) Default project language/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Deactivate Slovak' }).count()).toBe(1);
    expect(await page.getByLabel('Fallback language').count()).toBe(3); // Czech, Slovak, the new-language form
    expect(await axeViolations(page)).toEqual([]);
    const czech = (await stack.mapi<{ id: string }>('/languages/codename/cs-CZ')).json.id;
    const slovak = await stack.mapi<{ is_active: boolean; fallback_language: { id: string } }>(
      '/languages/codename/sk-SK',
    );
    expect(slovak.json).toMatchObject({ is_active: true, fallback_language: { id: czech } });
  });

  it('sets a preview URL for a content type', async () => {
    await open('preview-urls', 'Preview URLs');
    await page.getByLabel('Article: all spaces').fill('https://www.example.com/articles/{URLslug}');
    await page.getByRole('button', { name: 'Save preview URLs' }).click();
    await page.getByText('Saved.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const article = (await stack.mapi<{ id: string }>('/types/codename/article')).json.id;
    const config = await stack.mapi('/preview-configuration');
    expect(config.json).toEqual({
      space_domains: [],
      preview_url_patterns: [
        {
          content_type: { id: article },
          url_patterns: [{ space: null, url_pattern: 'https://www.example.com/articles/{URLslug}' }],
        },
      ],
    });
  });

  it('creates a space with a collection, refusing a root item that does not exist', async () => {
    await open('spaces', 'Spaces');
    const form = page.getByRole('form', { name: 'New space' });
    await form.getByLabel('Name', { exact: true }).fill('Website');
    await form.getByLabel('Codename', { exact: true }).fill('website');
    await form.getByLabel('Web Spotlight root item (codename)').fill('no_such_item');
    await form.getByLabel('Marketing').check();
    await form.getByRole('button', { name: 'Create space' }).click();
    await form.locator('.field-problem').first().waitFor(); // the server knows no such item
    expect((await stack.mapi<unknown[]>('/spaces')).json).toEqual([]);
    await form.getByLabel('Web Spotlight root item (codename)').fill('');
    await form.getByRole('button', { name: 'Create space' }).click();
    await page.getByRole('form', { name: 'Space Website' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const marketing = (
      await stack.mapi<{ collections: { id: string; codename: string }[] }>('/collections')
    ).json.collections.find((c) => c.codename === 'marketing');
    expect((await stack.mapi('/spaces')).json).toMatchObject([
      { name: 'Website', codename: 'website', web_spotlight_root_item: null, collections: [{ id: marketing?.id }] },
    ]);
  });

  it('shows a Reviewer all of it read-only', async () => {
    const reviewer = await (await browser.newContext()).newPage();
    await acceptInvitation(reviewer, await stack.invite('reviewer@example.com', 'reviewer'), password);
    page = reviewer;
    await open('taxonomies', 'Taxonomies');
    await page.getByRole('note').getByText('Your role lets you view this but not change it.').waitFor();
    await page.getByRole('button', { name: 'Coffee kinds' }).click();
    await page.getByRole('list', { name: 'Terms under Espresso' }).getByText('Ristretto', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /^(Move|Rename|Delete|Create)/ }).count()).toBe(0);
    expect(
      await page.getByRole('form', { name: 'Taxonomy group' }).getByLabel('Name', { exact: true }).isDisabled(),
    ).toBe(true);
    await open('workflows', 'Workflows');
    expect(await page.getByRole('button', { name: 'Create new workflow' }).count()).toBe(0);
    await page.getByRole('button', { name: 'View Editorial' }).click();
    expect(await page.getByLabel('Workflow name').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: /Create workflow|Save changes/ }).count()).toBe(0);
    await open('languages', 'Localization');
    expect(await page.getByRole('form', { name: 'New language' }).count()).toBe(0);
    await open('preview-urls', 'Preview URLs');
    expect(await page.getByLabel('Article: all spaces').isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });
});
