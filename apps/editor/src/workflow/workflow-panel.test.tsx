// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seriousViolations } from '../../test/axe.ts';
import { fakeApi, type Handler } from '../../test/fake-server.ts';
import { renderWithQuery } from '../../test/render.tsx';
import { WorkflowPanel } from './workflow-panel.tsx';

const published = 'c199950d-99f0-4983-b711-6c4c91624b22';
const scheduled = '9d2b0228-4d0d-4c23-8b49-01a698857709';
const archived = '7a535a69-ad34-47f8-806a-def1fdf4d391';
const lang = '00000000-0000-0000-0000-000000000000';
const base = `/v2/projects/p1/items/i1/variants/${lang}`;

function workflow(id: string, name: string, steps: unknown[], scopes: unknown[] = []) {
  return {
    id,
    name,
    codename: name.toLowerCase(),
    scopes,
    steps,
    published_step: {
      id: published,
      name: 'Published',
      codename: 'published',
      unpublish_role_ids: [],
      create_new_version_role_ids: [],
    },
    scheduled_step: { id: scheduled, name: 'Scheduled', codename: 'scheduled' },
    archived_step: { id: archived, name: 'Archived', codename: 'archived', role_ids: [] },
  };
}
const step = (id: string, name: string, to: string[], roles: string[] = []) => ({
  id,
  name,
  codename: name.toLowerCase(),
  color: 'gray',
  transitions_to: to.map((t) => ({ step: { id: t } })),
  role_ids: roles,
});

const editorial = workflow('w1', 'Editorial', [
  step('s-draft', 'Draft', ['s-review', archived]),
  step('s-review', 'Review', ['s-draft', published, archived], ['role-reviewer']),
  step('s-ready', 'Ready', [published]),
]);
const blog = workflow(
  'w2',
  'Blog',
  [step('b-write', 'Writing', [])],
  [{ content_types: [{ id: 't1' }], collections: [] }],
);
// A workflow without scopes covers no item (core refuses change-workflow into it).
const orphan = workflow('w4', 'Orphan', [step('o-start', 'Orphan start', [])]);
const shop = workflow(
  'w3',
  'Shop',
  [step('x-start', 'Shop start', [])],
  [{ content_types: [{ id: 't9' }], collections: [] }],
);

function variantAt(stepId: string, over: Record<string, unknown> = {}) {
  return {
    workflow: { workflow_identifier: { id: 'w1' }, step_identifier: { id: stepId } },
    workflow_step: { id: stepId },
    item: { id: 'i1' },
    language: { id: lang },
    elements: [],
    schedule: {
      publish_time: null,
      publish_display_timezone: null,
      unpublish_time: null,
      unpublish_display_timezone: null,
    },
    due_date: { value: null },
    contributors: [],
    note: null,
    ...over,
  };
}

function serve(variant: unknown, extra: Record<string, Handler> = {}, roles = ['Content creator']) {
  return fakeApi({
    [`GET ${base}`]: () => ({ body: variant }),
    [`GET ${base}/published`]: () => ({ status: 404, body: { message: 'The published version was not found.' } }),
    'GET /v2/projects/p1/workflows': () => ({ body: [editorial, blog, shop, orphan] }),
    'GET /v2/projects/p1/items/i1': () => ({
      body: { id: 'i1', name: 'Post', type: { id: 't1' }, collection: { id: lang } },
    }),
    'GET /session': () => ({
      body: { user: { id: 'u1', email: 'e@x.test' }, csrf_token: 't', projects: [{ id: 'p1', roles }] },
    }),
    'GET /v2/projects/p1/roles': () => ({
      body: {
        roles: [
          { id: 'role-pm', name: 'Project manager', codename: 'project-manager' },
          { id: 'role-creator', name: 'Content creator' },
          { id: 'role-reviewer', name: 'Reviewer' },
        ],
      },
    }),
    'GET /projects/p1/users': () => ({
      body: {
        users: [
          { id: 'u1', email: 'e@x.test' },
          { id: 'u2', email: 'f@x.test' },
        ],
      },
    }),
    ...extra,
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const panel = (canChange = true) => (
  <WorkflowPanel projectId="p1" itemId="i1" languageId={lang} canChange={canChange} />
);

describe('WorkflowPanel', () => {
  it('offers in "Change workflow" only the steps the current step may go to, and workflows covering the item', async () => {
    let sent: unknown = null;
    serve(variantAt('s-draft'), {
      [`PUT ${base}/change-workflow`]: (r) => {
        sent = r.body;
        return { status: 204 };
      },
    });
    renderWithQuery(panel());
    expect(await screen.findByText('Draft')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Change workflow' })).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Change workflow' }));
    const dialog = screen.getByRole('dialog', { name: 'Change workflow' });
    const steps = within(dialog)
      .getAllByRole('radio')
      .map((r) => r.parentElement?.textContent);
    expect(steps).toEqual(['Review (Editorial)', 'Archived (Editorial)', 'Writing (Blog)']);
    fireEvent.click(within(dialog).getByLabelText('f@x.test'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change workflow' }));
    await waitFor(() => expect(sent).not.toBeNull());
    expect(sent).toEqual({
      workflow_identifier: { id: 'w1' },
      step_identifier: { id: 's-review' },
      due_date: { value: null },
      contributors: [{ id: 'u2' }],
      note: null,
    });
  });

  it("offers nothing from a step whose roles the person does not have, and the step's moves to one who has them", async () => {
    const { calls } = serve(variantAt('s-review'));
    const first = renderWithQuery(panel());
    expect(await screen.findByText('Review')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.path === '/v2/projects/p1/roles')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Change workflow' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    first.unmount();
    serve(variantAt('s-review'), {}, ['Reviewer']);
    renderWithQuery(panel());
    expect(await screen.findByRole('button', { name: 'Publish' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change workflow' }));
    const steps = within(screen.getByRole('dialog', { name: 'Change workflow' }))
      .getAllByRole('radio')
      .map((r) => r.parentElement?.textContent);
    expect(steps).toEqual(['Draft (Editorial)', 'Archived (Editorial)', 'Writing (Blog)']);
  });

  it('schedules publishing with the chosen time zone: scheduled_to in UTC and display_timezone', async () => {
    let sent: unknown = null;
    serve(variantAt('s-ready'), {
      [`PUT ${base}/publish`]: (r) => {
        sent = r.body;
        return { status: 204 };
      },
    });
    renderWithQuery(panel());
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule publish' }));
    const dialog = screen.getByRole('dialog', { name: 'Schedule publish' });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2030-01-10' } });
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '09:00' } });
    fireEvent.change(within(dialog).getByLabelText('Time zone'), { target: { value: 'Asia/Tokyo' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() =>
      expect(sent).toEqual({ scheduled_to: '2030-01-10T00:00:00.000Z', display_timezone: 'Asia/Tokyo' }),
    );
  });

  it('on a published variant offers new version, unpublish (confirmed) and schedule unpublish, and shows a refusal in the API words', async () => {
    const { calls } = serve(variantAt(published), {
      [`PUT ${base}/unpublish`]: () => ({
        status: 400,
        body: { message: 'The language variant is not published.', error_code: 213 },
      }),
    });
    renderWithQuery(panel());
    await screen.findByRole('button', { name: 'Create new version' });
    expect(screen.getByRole('button', { name: 'Schedule unpublish' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Change workflow' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unpublish' }));
    const confirm = screen.getByRole('dialog', { name: 'Unpublish' });
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Unpublish' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The language variant is not published.');
  });

  it('shows a scheduled variant with its time and zone, and "Cancel scheduling"; a reader sees no action', async () => {
    serve(
      variantAt(scheduled, {
        schedule: {
          publish_time: '2030-01-10T00:00:00Z',
          publish_display_timezone: 'Asia/Tokyo',
          unpublish_time: null,
          unpublish_display_timezone: null,
        },
      }),
    );
    const { unmount } = renderWithQuery(panel());
    expect(await screen.findByText('10 Jan 2030, 09:00 (Asia/Tokyo)')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Cancel scheduling' })).toBeTruthy();
    unmount();
    renderWithQuery(panel(false));
    await screen.findByText('Scheduled');
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('has no serious axe violation, with the Change workflow and the Schedule dialogs open', async () => {
    serve(variantAt('s-draft'));
    renderWithQuery(panel());
    fireEvent.click(await screen.findByRole('button', { name: 'Change workflow' }));
    await screen.findByLabelText('f@x.test');
    expect(await seriousViolations()).toEqual([]);
    cleanup();
    serve(variantAt('s-ready'));
    renderWithQuery(panel());
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule publish' }));
    expect(await seriousViolations()).toEqual([]);
  });
});
