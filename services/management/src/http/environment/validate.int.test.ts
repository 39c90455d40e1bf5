import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type Json = Record<string, unknown>;
const recorded =
  'management/kontent-ai+management-sdk-net/Kontent.Ai.Management.Tests/Data/ProjectValidation/ProjectValidation.json';
const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses';
let server: TestManagement;

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

beforeAll(async () => {
  server = await startTestManagement();
  await call('/taxonomies', 'POST', {
    name: 'Topics',
    codename: 'topics',
    terms: [{ name: 'Coffee', codename: 'coffee', terms: [] }],
  });
  await call('/types', 'POST', {
    name: 'Article',
    codename: 'article',
    elements: [
      { name: 'Title', codename: 'title', type: 'text', is_required: true },
      { name: 'Related articles', codename: 'related', type: 'modular_content' },
      { name: 'Topics', codename: 'topics', type: 'taxonomy', taxonomy_group: { codename: 'topics' } },
    ],
  });
  await call('/items', 'POST', { name: 'Good', codename: 'good', type: { codename: 'article' } });
  await call('/items/codename/good/variants/codename/default', 'PUT', {
    elements: [
      { element: { codename: 'title' }, value: 'Fine' },
      { element: { codename: 'topics' }, value: [{ codename: 'coffee' }] },
    ],
  });
  await call('/items', 'POST', { name: 'Broken', codename: 'broken', type: { codename: 'article' } });
  await call('/items/codename/broken/variants/codename/default', 'PUT', {
    elements: [{ element: { codename: 'related' }, value: [{ external_id: 'not-there-yet' }, { codename: 'good' }] }],
  });
});
afterAll(async () => {
  await server.close();
});

describe('POST /validate', () => {
  it('reports required elements without value and references to missing items, in the recorded shape', async () => {
    const report = await call('/validate', 'POST');
    expect(report.status).toBe(200);
    expect(report.json['project']).toMatchObject({ id: server.projectId });
    const issues = report.json['variant_issues'] as { item: Json; issues: { element: Json; messages: string[] }[] }[];
    expect(issues.map((i) => i.item['codename'])).toEqual(['broken']);
    const byElement = Object.fromEntries(issues[0]?.issues.map((i) => [i.element['codename'], i.messages]) ?? []);
    expect(byElement['title']).toEqual(["Element 'Title' is required but has no value."]);
    expect(byElement['related']).toHaveLength(1);
    expect(byElement['related']?.[0]).toMatch(
      /^Element 'Related articles' references a non-existent content item [0-9a-f-]{36}\.$/,
    );
    expect(report.json['type_issues']).toEqual([]);
    expect(shapeDifferences(report.json, readFixture(recorded))).toEqual([]);
  });

  it('no longer reports the reference once the item exists, and finds a type that names a deleted taxonomy group', async () => {
    await call('/items', 'POST', {
      name: 'Later',
      codename: 'later',
      external_id: 'not-there-yet',
      type: { codename: 'article' },
    });
    await call('/items/codename/broken/variants/codename/default', 'PUT', {
      elements: [{ element: { codename: 'title' }, value: 'Now' }],
    });
    expect((await call('/validate', 'POST')).json['variant_issues']).toEqual([]);
    expect((await call('/taxonomies/codename/topics', 'DELETE')).status).toBe(204);
    const report = await call('/validate', 'POST');
    const types = report.json['type_issues'] as { type: Json; issues: { element: Json; messages: string[] }[] }[];
    expect(types.map((t) => t.type['codename'])).toEqual(['article']);
    expect(types[0]?.issues.map((i) => i.element['codename'])).toEqual(['topics']);
    expect(types[0]?.issues[0]?.messages[0]).toMatch(/^The taxonomy group '[0-9a-f-]{36}' does not exist\.$/);
    // The terms the variants hold are now dangling too.
    const variants = report.json['variant_issues'] as { item: Json }[];
    expect(variants.map((v) => v.item['codename'])).toEqual(['good']);
  });
});

describe('POST /validate-async through @kontent-ai/management-sdk', () => {
  it('answers 202 with a queued task, finishes it in the background and pages its issues', async () => {
    await call('/items', 'POST', { name: 'Empty one', codename: 'empty_one', type: { codename: 'article' } });
    await call('/items/codename/empty_one/variants/codename/default', 'PUT', { elements: [] });
    const started = await server.client.startEnvironmentValidation().toPromise();
    expect(started.rawData).toMatchObject({ status: 'queued', validation_result: 'none' });
    expect(
      shapeDifferences(started.rawData, readFixture(`${fakes}/projects/fake-start-project-validation.json`), {
        isExact: true,
      }),
    ).toEqual([]);
    let task = started.rawData;
    for (let i = 0; i < 100 && task.status === 'queued'; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      task = (await server.client.checkEnvironmentValidation().byTaskId(started.rawData.id).toPromise()).rawData;
    }
    expect(task).toEqual({ id: started.rawData.id, status: 'finished', validation_result: 'issues_found' });
    const issues = await server.client.listEnvironmentValidationIssues().byTaskId(task.id).toPromise();
    const raw = issues.rawData as unknown as { issues: Json[]; pagination: Json };
    expect(raw.issues.map((i) => i['issue_type'])).toEqual(['type_issue', 'variant_issue', 'variant_issue']);
    expect(raw.issues.slice(1).map((i) => (i['item'] as Json)['codename'])).toEqual(['good', 'empty_one']);
    expect(shapeDifferences(raw, readFixture(`${fakes}/projects/fake-project-validation-issues.json`))).toEqual([]);

    const missing = await call('/validate-async/tasks/6a1b3c2d-0000-4000-8000-000000000009', 'GET');
    expect(missing.status).toBe(404);
    expect(missing.json['error_code']).toBe(120);
  });
});

describe('POST /validate and length limits', () => {
  it('reports a text longer than a limit set after it was written', async () => {
    await call('/types', 'POST', {
      name: 'Teaser',
      codename: 'teaser',
      elements: [{ name: 'Meta description', codename: 'meta', type: 'text' }],
    });
    await call('/items', 'POST', { name: 'Long', codename: 'long', type: { codename: 'teaser' } });
    await call('/items/codename/long/variants/codename/default', 'PUT', {
      elements: [{ element: { codename: 'meta' }, value: 'x'.repeat(174) }],
    });
    await call('/types/codename/teaser', 'PATCH', [
      {
        op: 'replace',
        path: '/elements/codename:meta/maximum_text_length',
        value: { value: 160, applies_to: 'characters' },
      },
    ]);
    const report = await call('/validate', 'POST');
    const long = (report.json['variant_issues'] as { item: Json; issues: { messages: string[] }[] }[]).find(
      (i) => i.item['codename'] === 'long',
    );
    expect(long?.issues[0]?.messages).toEqual([
      "Element 'Meta description' should have at most 160 character(s) but has 174 character(s).",
    ]);
  });
});
