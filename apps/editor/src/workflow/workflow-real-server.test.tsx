// @vitest-environment happy-dom
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealMapi, type RealMapi } from '../../test/real-mapi.ts';
import { renderWithQuery } from '../../test/render.tsx';
import { WorkflowPanel } from './workflow-panel.tsx';

/*
 * The workflow panel against the real Management API routes (in-process, PGlite), on the default
 * workflow (Draft → Published, Archived; every role): each button's call moves the variant as the
 * server's own workflow rules say, read back through the MAPI.
 */
// A real server on a shared machine: wait for it longer than the library's 1 s default.
configure({ asyncUtilTimeout: 10_000 });

let mapi: RealMapi;
let variantPath = '';

interface Variant {
  workflow: { step_identifier: { id: string } };
  schedule: { publish_time: string | null; publish_display_timezone: string | null };
}
const steps = { published: 'c199950d-99f0-4983-b711-6c4c91624b22', archived: '7a535a69-ad34-47f8-806a-def1fdf4d391' };

beforeAll(async () => {
  mapi = await startRealMapi();
  const type = await mapi.call<{ id: string }>('POST', '/types', {
    name: 'Note',
    codename: 'note',
    elements: [{ name: 'Body', codename: 'body', type: 'text' }],
  });
  const item = await mapi.call<{ id: string }>('POST', '/items', { name: 'First note', type: { id: type.json.id } });
  variantPath = `/items/${item.json.id}/variants/00000000-0000-0000-0000-000000000000`;
  await mapi.call('PUT', variantPath, { elements: [{ element: { codename: 'body' }, value: 'Hello' }] });
  renderWithQuery(
    <WorkflowPanel
      projectId={mapi.projectId}
      itemId={item.json.id}
      languageId="00000000-0000-0000-0000-000000000000"
      canChange
    />,
  );
}, 60_000);

afterAll(async () => {
  cleanup();
  await mapi.close();
});

const variant = async () => (await mapi.call<Variant>('GET', variantPath)).json;
/** The button once it is enabled (the panel disables its actions while one runs and the variant is read again). */
const enabled = async (name: string) => {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  return button;
};
const confirm = (name: string) =>
  fireEvent.click(within(screen.getByRole('dialog', { name })).getByRole('button', { name }));

describe('WorkflowPanel on the real Management API', () => {
  it('publishes, creates a new version, schedules with a time zone, cancels, and archives', async () => {
    expect(await screen.findByText('Draft')).toBeTruthy();
    fireEvent.click(await enabled('Publish'));
    confirm('Publish');
    await screen.findByRole('button', { name: 'Create new version' });
    expect((await variant()).workflow.step_identifier.id).toBe(steps.published);
    expect(screen.getByText('Published')).toBeTruthy();

    fireEvent.click(await enabled('Create new version'));
    await screen.findByRole('button', { name: 'Schedule publish' });
    // A published version exists under the new draft: it may be unpublished.
    expect(await screen.findByRole('button', { name: 'Unpublish' })).toBeTruthy();

    fireEvent.click(await enabled('Schedule publish'));
    const dialog = screen.getByRole('dialog', { name: 'Schedule publish' });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2030-01-10' } });
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '09:00' } });
    fireEvent.change(within(dialog).getByLabelText('Time zone'), { target: { value: 'Asia/Tokyo' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await screen.findByRole('button', { name: 'Cancel scheduling' });
    const scheduled = await variant();
    expect(scheduled.schedule.publish_time).toMatch(/^2030-01-10T00:00:00(\.000)?Z$/);
    expect(scheduled.schedule.publish_display_timezone).toBe('Asia/Tokyo');
    expect(screen.getByText('10 Jan 2030, 09:00 (Asia/Tokyo)')).toBeTruthy();

    fireEvent.click(await enabled('Cancel scheduling'));
    confirm('Cancel scheduling');
    await screen.findByRole('button', { name: 'Change workflow' });
    expect((await variant()).schedule.publish_time).toBeNull();

    fireEvent.click(await enabled('Change workflow'));
    const change = screen.getByRole('dialog', { name: 'Change workflow' });
    fireEvent.click(within(change).getByLabelText(/Archived/));
    fireEvent.click(within(change).getByRole('button', { name: 'Change workflow' }));
    await waitFor(async () => expect((await variant()).workflow.step_identifier.id).toBe(steps.archived));
    expect(await screen.findByText('Archived')).toBeTruthy();
  }, 60_000);
});
