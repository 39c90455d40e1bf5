import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  acceptInvitation,
  axeViolations,
  chromiumPath,
  launchBrowser,
  screenshot,
  seedNotes,
  startEditorStack,
  type EditorStack,
} from '../../test/harness.ts';

/*
 * The workflow panel in the item editor's header, in Chromium against `lectern start`, for a
 * Content creator: a workflow scoped to notes (Writing → Review or Published; Review only for
 * project managers). "Change workflow" offers exactly the steps the workflow and the role allow
 * and stores the step, a contributor and a due date; at Review the person has no move; "Schedule
 * publish" sends the instant and the chosen time zone; "Cancel scheduling" undoes it.
 */

const password = 'correct horse battery staple';

interface Variant {
  workflow: { workflow_identifier: { id: string }; step_identifier: { id: string } };
  schedule: { publish_time: string | null; publish_display_timezone: string | null };
  due_date: { value: string | null };
  contributors: { id: string }[];
}

describe.skipIf(chromiumPath === null)('the workflow panel', () => {
  let stack: EditorStack;
  let browser: Browser;
  let page: Page;
  let itemUrl: string;
  let variantPath: string;
  let steps: Record<string, string>;
  let workflowId: string;

  const variant = async () => (await stack.mapi<Variant>(variantPath)).json;
  const panel = () => page.getByRole('region', { name: 'Workflow', exact: true });

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startEditorStack(), launchBrowser()]);
    const roles = await stack.mapi<{ roles: { id: string; codename?: string }[] }>('/roles');
    const manager = roles.json.roles.find((r) => r.codename === 'project-manager')?.id ?? '';
    const type = await stack.mapi<{ id: string }>('/types', {
      method: 'POST',
      body: { name: 'Note', codename: 'note', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
    });
    const workflow = await stack.mapi<{ id: string; steps: { id: string; codename: string }[] }>('/workflows', {
      method: 'POST',
      body: {
        name: 'Editorial',
        codename: 'editorial',
        scopes: [{ content_types: [{ id: type.json.id }], collections: [] }],
        steps: [
          {
            name: 'Writing',
            codename: 'writing',
            color: 'sky-blue',
            transitions_to: [{ step: { codename: 'review' } }, { step: { codename: 'published' } }],
            role_ids: [],
          },
          {
            name: 'Review',
            codename: 'review',
            color: 'rose',
            transitions_to: [{ step: { codename: 'writing' } }, { step: { codename: 'published' } }],
            role_ids: [manager],
          },
        ],
        published_step: { unpublish_role_ids: [], create_new_version_role_ids: [] },
        archived_step: { role_ids: [] },
      },
    });
    expect(workflow.status).toBe(201);
    workflowId = workflow.json.id;
    steps = Object.fromEntries(workflow.json.steps.map((s) => [s.codename, s.id]));
    const { itemIds } = await seedNotes(stack, { count: 1, prefix: 'Workflow note' });
    variantPath = `/items/${itemIds[0]}/variants/codename/default`;
    itemUrl = `${stack.appUrl}/p/${stack.projectId}/default/items/${itemIds[0]}`;
    page = await (await browser.newContext()).newPage();
    await acceptInvitation(page, await stack.invite('writer@example.com', 'content-creator'), password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('offers the allowed steps in "Change workflow" and stores the step, a contributor and a due date', async () => {
    expect((await variant()).workflow.step_identifier.id).toBe(steps['writing']);
    await page.goto(itemUrl);
    await panel().locator('.step-badge', { hasText: 'Writing' }).waitFor();
    await panel().getByRole('button', { name: 'Change workflow' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change workflow' });
    await dialog.getByLabel('writer@example.com').waitFor();
    const offered = await dialog.locator('label.choice:has(input[type=radio])').allTextContents();
    expect(offered).toEqual(['Review (Editorial)', 'Draft (Default)']);
    await dialog.getByLabel(/Review/).check();
    await dialog.getByLabel('writer@example.com').check();
    await dialog.getByLabel('Date').fill('2031-05-20');
    await dialog.getByLabel(/^Time/).fill('16:00');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'workflow-dialog');
    await dialog.getByRole('button', { name: 'Change workflow' }).click();
    await panel().locator('.step-badge', { hasText: 'Review' }).waitFor();
    const stored = await variant();
    expect(stored.workflow.step_identifier.id).toBe(steps['review']);
    expect(stored.contributors).toHaveLength(1);
    expect(stored.due_date.value).toMatch(/^2031-05-20T/);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await panel().locator('dd', { hasText: 'writer@example.com' }).waitFor();
  });

  it('gives no move from a step the role may not work in', async () => {
    await panel().locator('.step-badge', { hasText: 'Review' }).waitFor();
    expect(await panel().getByRole('button').allTextContents()).toEqual([]);
  });

  it('schedules publishing in a chosen time zone and cancels it', async () => {
    const back = await stack.mapi(`${variantPath}/change-workflow`, {
      method: 'PUT',
      body: { workflow_identifier: { id: workflowId }, step_identifier: { id: steps['writing'] } },
    });
    expect(back.status).toBe(204);
    await panel().locator('.step-badge', { hasText: 'Writing' }).waitFor(); // the change stream refreshes the panel
    await panel().getByRole('button', { name: 'Schedule publish' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule publish' });
    await dialog.getByLabel('Date').fill('2031-06-01');
    await dialog.getByLabel('Time', { exact: true }).fill('09:30');
    await dialog.getByLabel('Time zone').selectOption('America/New_York');
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await panel().getByText('1 Jun 2031, 09:30 (America/New_York)').waitFor();
    const scheduled = await variant();
    expect(scheduled.schedule.publish_time).toMatch(/^2031-06-01T13:30:00(\.000)?Z$/);
    expect(scheduled.schedule.publish_display_timezone).toBe('America/New_York');

    await panel().getByRole('button', { name: 'Cancel scheduling' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel scheduling' })
      .getByRole('button', { name: 'Cancel scheduling' })
      .click();
    await panel().getByRole('button', { name: 'Schedule publish' }).waitFor();
    expect((await variant()).schedule.publish_time).toBeNull();
  });
});
