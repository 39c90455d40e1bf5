import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCore } from '@lectern/testing';
import { startPeopleFixture, type PeopleFixture } from '../../testing/people-fixture.ts';

/*
 * A person is held to the workflow's roles and transitions in core, as the editor's workflow panel
 * offers them, so a forged request gets no further than the panel; a management key is held to its
 * user's permissions alone, as at Kontent.ai.
 */
describe("a person's workflow moves", () => {
  let fixture: PeopleFixture;
  const item = '/items/codename/story/variants/codename/default';
  const step = async () =>
    ((await (await fixture.server.fetch(item)).json()) as { workflow: { step_identifier: { id: string } } }).workflow
      .step_identifier.id;
  const stepIds: Record<string, string> = {};

  beforeAll(async () => {
    fixture = await startPeopleFixture({ core: await openTestCore() });
    const { server, roleIds } = fixture;
    await server.fetch('/types', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Story',
        codename: 'story',
        elements: [{ type: 'text', name: 'Body', codename: 'body' }],
      }),
    });
    const managerOnly = [roleIds['Project manager'] as string];
    const workflow = await server.fetch('/workflows', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Editorial',
        codename: 'editorial',
        scopes: [{ content_types: [{ codename: 'story' }], collections: [] }],
        steps: [
          {
            name: 'Draft',
            codename: 'draft',
            color: 'gray',
            transitions_to: [{ step: { codename: 'review' } }],
            role_ids: [],
          },
          {
            name: 'Review',
            codename: 'review',
            color: 'red',
            transitions_to: [{ step: { codename: 'draft' } }, { step: { codename: 'published' } }],
            role_ids: managerOnly,
          },
          {
            name: 'Approved',
            codename: 'approved',
            color: 'dark-green',
            transitions_to: [{ step: { codename: 'published' } }],
            role_ids: [],
          },
        ],
        published_step: { unpublish_role_ids: managerOnly, create_new_version_role_ids: [] },
        archived_step: { role_ids: [] },
      }),
    });
    if (workflow.status !== 201) throw new Error(await workflow.text());
    for (const s of ((await workflow.json()) as { steps: { id: string; codename: string }[] }).steps)
      stepIds[s.codename] = s.id;
    await server.fetch('/items', {
      method: 'POST',
      body: JSON.stringify({ name: 'Story', codename: 'story', type: { codename: 'story' } }),
    });
    await server.fetch(item, {
      method: 'PUT',
      body: JSON.stringify({ elements: [{ element: { codename: 'body' }, value: 'Hi' }] }),
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const move = (codename: string) => ({
    workflow_identifier: { codename: 'editorial' },
    step_identifier: { codename },
  });
  const path = () => `/v2/projects/${fixture.server.projectId}${item}`;

  it('lets a Content creator move only along the transitions of steps their role may work with', async () => {
    const creator = await fixture.invited('creator', 'Content creator');
    expect(await step()).toBe(stepIds['draft']);
    const skipped = await creator.call(`${path()}/change-workflow`, { method: 'PUT', body: move('approved') });
    expect(skipped.status).toBe(403);
    expect(skipped.json).toMatchObject({ error_code: 16 });
    const viaUpsert = await creator.call(path(), { method: 'PUT', body: { elements: [], workflow: move('approved') } });
    expect(viaUpsert.status).toBe(403);
    expect(await step()).toBe(stepIds['draft']);

    expect((await creator.call(`${path()}/change-workflow`, { method: 'PUT', body: move('review') })).status).toBe(204);
    expect(await step()).toBe(stepIds['review']);
    // Review is the Project manager's alone: neither back to Draft nor on to Published.
    expect((await creator.call(`${path()}/change-workflow`, { method: 'PUT', body: move('draft') })).status).toBe(403);
    expect((await creator.call(`${path()}/publish`, { method: 'PUT' })).status).toBe(403);
    expect(await step()).toBe(stepIds['review']);
  });

  it('lets a Project manager publish from Review, and keeps unpublishing to the roles the workflow names', async () => {
    const manager = await fixture.invited('manager', 'Project manager');
    expect((await manager.call(`${path()}/publish`, { method: 'PUT' })).status).toBe(204);
    const creator = await fixture.invited('creator2', 'Content creator');
    const unpublish = await creator.call(`${path()}/unpublish-and-archive`, { method: 'PUT' });
    expect(unpublish.status).toBe(403);
    expect((await creator.call(`${path()}/new-version`, { method: 'PUT' })).status).toBe(204);
  });

  it("holds a management key to its user's permissions alone, as the Management API does", async () => {
    const moved = await fixture.server.fetch(`${item}/change-workflow`, {
      method: 'PUT',
      body: JSON.stringify(move('approved')),
    });
    expect(moved.status).toBe(204);
    expect(await step()).toBe(stepIds['approved']);
  });
});
