import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowModels } from '@kontent-ai/management-sdk';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fixtures = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/workflow';
const zero = '00000000-0000-0000-0000-000000000000';
const published = 'c199950d-99f0-4983-b711-6c4c91624b22';
const scheduled = '9d2b0228-4d0d-4c23-8b49-01a698857709';
const archived = '7a535a69-ad34-47f8-806a-def1fdf4d391';
const draft = 'eee6db3b-545a-4785-8e86-e3772c8756f9';
const role = 'e796887c-38a1-4ab2-a999-c40861bb7a4b';
let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
  await server.client
    .setCollections()
    .withData([{ op: 'addInto', value: { name: 'Marketing', codename: 'marketing' } }])
    .toPromise();
});
afterAll(async () => {
  await server.close();
});

interface StepJson {
  id: string;
  codename: string;
  name: string;
  transitions_to: { step: { id: string } }[];
}
interface WorkflowJson {
  id: string;
  codename: string;
  name: string;
  scopes: { content_types: { id: string }[]; collections: { id: string }[] }[];
  steps: StepJson[];
}

const body = (): WorkflowModels.IAddWorkflowData => ({
  name: 'My workflow',
  scopes: [{ content_types: [{ external_id: 'future-type' }], collections: [{ codename: 'marketing' }] }],
  steps: [
    {
      name: 'First step',
      codename: 'first_step',
      color: 'sky-blue',
      transitions_to: [{ step: { codename: 'second_step' } }],
      role_ids: [],
    },
    {
      name: 'Second step',
      codename: 'second_step',
      color: 'rose',
      transitions_to: [{ step: { codename: 'published' } }],
      role_ids: [role],
    },
  ],
  published_step: { unpublish_role_ids: [role], create_new_version_role_ids: [] },
  archived_step: { role_ids: [] },
});

const listRaw = async () => (await server.fetch('/workflows').then((r) => r.json())) as WorkflowJson[];

describe('workflows through @kontent-ai/management-sdk', () => {
  it('lists the default workflow with the system steps', async () => {
    const list = await server.client.listWorkflows().toPromise();
    const raw = list.rawData as unknown as WorkflowJson[];
    expect(raw[0]).toEqual({
      id: zero,
      name: 'Default',
      codename: 'default',
      scopes: [],
      steps: [
        {
          id: draft,
          name: 'Draft',
          codename: 'draft',
          color: 'sky-blue',
          transitions_to: [{ step: { id: published } }, { step: { id: archived } }],
          role_ids: [],
        },
      ],
      published_step: {
        id: published,
        name: 'Published',
        codename: 'published',
        unpublish_role_ids: [],
        create_new_version_role_ids: [],
      },
      scheduled_step: { id: scheduled, name: 'Scheduled', codename: 'scheduled' },
      archived_step: { id: archived, name: 'Archived', codename: 'archived', role_ids: [] },
    });
    expect(list.data[0]?.scheduledStep.id).toBe(scheduled);
    expect(shapeDifferences(raw, readFixture(`${fixtures}/fake-list-workflows.json`))).toEqual([]);
  });

  it('answers the legacy /workflow with the default workflow steps', async () => {
    const steps = (await server.fetch('/workflow').then((r) => r.json())) as { id: string; transitions_to: string[] }[];
    expect(steps.map((s) => s.id)).toEqual([draft, scheduled, published, archived]);
    expect(steps[0]?.transitions_to).toEqual([published, archived]);
  });

  it('keeps the ids of steps a PUT names by codename alone, as data-ops sends them when it restores scopes', async () => {
    const added = await server.client
      .addWorkflow()
      .withData({ ...body(), name: 'Kept steps', codename: 'kept_steps', scopes: [] })
      .toPromise();
    const before = (added.rawData as unknown as WorkflowJson).steps.map((s) => s.id);
    const updated = await server.client
      .updateWorkflow()
      .byWorkflowCodename('kept_steps')
      .withData({ ...body(), name: 'Kept steps', codename: 'kept_steps' })
      .toPromise();
    const after = updated.rawData as unknown as WorkflowJson;
    expect(after.steps.map((s) => s.id)).toEqual(before);
    expect(after.scopes).toHaveLength(1);
    expect(after.steps[0]?.transitions_to).toEqual([{ step: { id: before[1] } }]);
    await server.client.deleteWorkflow().byWorkflowId(after.id).toPromise();
  });

  it('adds, updates and deletes a workflow', async () => {
    const added = await server.client.addWorkflow().withData(body()).toPromise();
    const raw = added.rawData as unknown as WorkflowJson;
    expect(shapeDifferences(raw, readFixture(`${fixtures}/fake-add-workflow.json`), { isExact: true })).toEqual([]);
    expect(raw.codename).toBe('my_workflow');
    const [first, second] = raw.steps as [StepJson, StepJson];
    expect(first.transitions_to).toEqual([{ step: { id: second.id } }]);
    expect(second.transitions_to).toEqual([{ step: { id: published } }]);
    const collections = await server.client.listCollections().toPromise();
    expect(raw.scopes).toEqual([
      {
        content_types: [{ id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown }],
        collections: [{ id: collections.data.collections.find((c) => c.codename === 'marketing')?.id }],
      },
    ]);

    const updated = await server.client
      .updateWorkflow()
      .byWorkflowCodename('my_workflow')
      .withData({
        ...body(),
        name: 'Renamed workflow',
        steps: [
          { ...body().steps[0]!, id: first.id, name: 'First, renamed', transitions_to: [{ step: { id: 'new-step' } }] },
          {
            id: 'new-step',
            name: 'Review',
            codename: 'review',
            color: 'dark-green',
            transitions_to: [{ step: { codename: 'published' } }, { step: { codename: 'archived' } }],
            role_ids: [],
          },
        ],
      } as unknown as WorkflowModels.IUpdateWorkflowData)
      .toPromise();
    const after = updated.rawData as unknown as WorkflowJson;
    expect(after).toMatchObject({ id: raw.id, name: 'Renamed workflow', codename: 'my_workflow' });
    expect(after.steps.map((s) => s.codename)).toEqual(['first_step', 'review']);
    expect(after.steps[0]?.id).toBe(first.id);
    expect(after.steps[0]?.transitions_to).toEqual([{ step: { id: after.steps[1]?.id } }]);
    expect(after.steps[1]?.transitions_to).toEqual([{ step: { id: published } }, { step: { id: archived } }]);

    const collectionRemoval = await server.fetch('/collections', {
      method: 'PATCH',
      body: JSON.stringify([{ op: 'remove', reference: { codename: 'marketing' } }]),
    });
    expect(collectionRemoval.status).toBe(400);

    await server.client.deleteWorkflow().byWorkflowId(raw.id).toPromise();
    expect((await listRaw()).map((w) => w.id)).toEqual([zero]);
  });

  it('refuses to delete a workflow or remove a step that still holds variants, and changes nothing', async () => {
    const added = await server.client
      .addWorkflow()
      .withData({ ...body(), name: 'In use', codename: 'in_use', scopes: [] })
      .toPromise();
    const before = added.rawData as unknown as WorkflowJson;
    await server.client
      .addContentType()
      .withData(() => ({ name: 'Note', codename: 'note', elements: [] }))
      .toPromise();
    await server.client
      .addContentItem()
      .withData({ name: 'Held', codename: 'held', type: { codename: 'note' } })
      .toPromise();
    await server.client
      .upsertLanguageVariant()
      .byItemCodename('held')
      .byLanguageCodename('default')
      .withData(() => ({
        elements: [],
        workflow: { workflow_identifier: { codename: 'in_use' }, step_identifier: { codename: 'second_step' } },
      }))
      .toPromise();

    const removal = await server.fetch('/workflows/codename/in_use', {
      method: 'PUT',
      body: JSON.stringify({
        ...body(),
        name: 'In use',
        codename: 'in_use',
        scopes: [],
        steps: [{ ...body().steps[0], transitions_to: [{ step: { codename: 'published' } }] }],
      }),
    });
    expect(removal.status).toBe(400);
    const removalBody = (await removal.json()) as { error_code: number; validation_errors: { message: string }[] };
    expect(removalBody.error_code).toBeGreaterThan(0);
    expect(removalBody.validation_errors.map((v) => v.message).join(' ')).toContain(
      "'second_step' hold 1 language variant",
    );

    await expect(server.client.deleteWorkflow().byWorkflowCodename('in_use').toPromise()).rejects.toMatchObject({
      message: expect.stringContaining('is used by 1 language variant') as unknown,
    });
    expect((await listRaw()).find((w) => w.id === before.id)).toEqual(before);

    await server.client.deleteContentItem().byItemCodename('held').toPromise();
    await server.client.deleteWorkflow().byWorkflowCodename('in_use').toPromise();
    expect((await listRaw()).some((w) => w.id === before.id)).toBe(false);
  });

  it('refuses to delete the default workflow with error code 235', async () => {
    const response = await server.fetch(`/workflows/${zero}`, { method: 'DELETE' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error_code: number }).error_code).toBe(235);
    await expect(server.client.deleteWorkflow().byWorkflowCodename('default').toPromise()).rejects.toMatchObject({
      errorCode: 235,
    });
  });

  it('refuses bad bodies with every problem listed, and changes nothing', async () => {
    const before = await listRaw();
    const send = async (method: string, path: string, payload: unknown) => {
      const r = await server.fetch(path, { method, body: JSON.stringify(payload) });
      expect(r.status).toBe(400);
      const json = (await r.json()) as { error_code: number; validation_errors: { path?: string }[] };
      expect(json.error_code).toBe(5);
      return json.validation_errors.map((e) => e.path).sort();
    };
    expect(await send('POST', '/workflows', { name: '', codename: 'Bad codename' })).toEqual([
      'archived_step',
      'codename',
      'name',
      'published_step',
      'scopes',
      'steps',
    ]);
    expect(
      await send('POST', '/workflows', {
        ...body(),
        scopes: [{ content_types: [{ id: zero, codename: 'x' }], collections: [{ codename: 'nope' }] }],
        steps: [
          { name: 'A', codename: 'a', color: 'blue', transitions_to: [{ step: { codename: 'zzz' } }], role_ids: [] },
          { name: 'B', codename: 'a', color: 'red', transitions_to: 'no', role_ids: ['not-a-role'] },
        ],
      }),
    ).toEqual([
      'scopes[0].collections[0]',
      'scopes[0].content_types[0]',
      'steps[0].color',
      'steps[0].transitions_to[0]',
      'steps[1].codename',
      'steps[1].role_ids',
      'steps[1].transitions_to',
    ]);
    expect(
      await send('POST', '/workflows', {
        ...body(),
        steps: [{ name: 'Loop', codename: 'loop', color: 'red', transitions_to: [{ step: { codename: 'archived' } }] }],
      }),
    ).toEqual(['steps[0].transitions_to']);
    expect(await send('POST', '/workflows', { ...body(), codename: 'default' })).toEqual(['codename']);
    expect(await send('PUT', `/workflows/${zero}`, { ...body(), steps: [] })).toEqual(['steps']);
    expect(await listRaw()).toEqual(before);
  });

  it('answers 404 for unknown workflows and 405 for unsupported methods', async () => {
    const missing = await server.fetch('/workflows/codename/nope', { method: 'PUT', body: JSON.stringify(body()) });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error_code: number }).error_code).toBe(119);
    expect((await server.fetch('/workflows', { method: 'PATCH', body: '[]' })).status).toBe(405);
    expect((await server.fetch(`/workflows/${zero}`, { method: 'PATCH', body: '[]' })).status).toBe(405);
  });
});
