import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../testing/test-server.ts';
import { smallPng } from './variants/test-model.ts';

/*
 * Shapes that Kontent.ai itself exports (data-ops' backup of a Kontent.ai environment,
 * fixtures/management/kontent-ai+data-ops/…/backup.zip) and that data-ops sends back on restore.
 */

type Json = Record<string, unknown>;
let server: TestManagement;

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

describe('what Kontent.ai exports is accepted back', () => {
  it('takes a collection whose name and codename have 200 characters', async () => {
    const name = `Super long collection na${'m'.repeat(176)}`;
    const codename = name.toLowerCase().replaceAll(' ', '_');
    expect(codename).toHaveLength(200);
    const set = await server.client
      .setCollections()
      .withData([{ op: 'addInto', value: { name, codename, external_id: 'long' } as never }])
      .toPromise();
    expect(set.rawData.collections.map((c) => c.codename)).toContain(codename);
    const generated = await server.client
      .setCollections()
      .withData([{ op: 'addInto', value: { name: `${name.slice(0, 199)}X` } as never }])
      .toPromise();
    const made = generated.rawData.collections.find((c) => c.name.endsWith('X'));
    expect(made?.codename).toHaveLength(200);
    const tooLong = await call('/collections', 'PATCH', [
      { op: 'addInto', value: { name: 'x', codename: `${codename}_` } },
    ]);
    expect(tooLong.status).toBe(400);
  });

  it('takes an empty inactive validation_regex and allowed_formatting in any order', async () => {
    const snippet = await call('/snippets', 'POST', {
      name: 'Small snippet',
      codename: 'small_snippet',
      elements: [
        {
          maximum_text_length: { value: 444, applies_to: 'words' },
          validation_regex: { regex: '', flags: null, validation_message: '', is_active: false },
          default: { global: { value: 'sample default' } },
          name: 'just text',
          guidelines: null,
          is_required: false,
          is_non_localizable: false,
          type: 'text',
          codename: 'just_text',
        },
      ],
    });
    expect(snippet.status).toBe(201);
    const elements = snippet.json['elements'] as Json[];
    expect(elements[0]?.['validation_regex']).toEqual({
      regex: '',
      flags: null,
      validation_message: '',
      is_active: false,
    });
    const type = await call('/types', 'POST', {
      name: 'All elements',
      elements: [
        {
          name: 'Body',
          type: 'rich_text',
          allowed_formatting: ['bold', 'superscript', 'subscript', 'code', 'link', 'unstyled'],
        },
      ],
    });
    expect(type.status).toBe(201);
    expect((type.json['elements'] as Json[])[0]?.['allowed_formatting']).toEqual([
      'bold',
      'superscript',
      'subscript',
      'code',
      'link',
      'unstyled',
    ]);
    const active = await call('/types', 'POST', {
      name: 'Active empty',
      elements: [{ name: 'T', type: 'text', validation_regex: { regex: '', is_active: true } }],
    });
    expect(active.status).toBe(400);
    expect((active.json['validation_errors'] as Json[]).map((v) => v['path'])).toEqual([
      'elements[0].validation_regex.regex',
    ]);
  });
});

describe('variant restores as data-ops sends them', () => {
  it('upserts a variant into a workflow whose scopes do not cover the item; change-workflow still refuses', async () => {
    await call('/types', 'POST', { name: 'Page', codename: 'page', elements: [{ name: 'T', type: 'text' }] });
    await call('/types', 'POST', { name: 'Post', codename: 'post', elements: [] });
    const workflow = await call('/workflows', 'POST', {
      name: 'Posts only',
      codename: 'posts_only',
      scopes: [{ content_types: [{ codename: 'post' }], collections: [] }],
      steps: [
        {
          name: 'Review',
          codename: 'review',
          color: 'red',
          transitions_to: [{ step: { codename: 'published' } }],
          role_ids: [],
        },
      ],
      published_step: { unpublish_role_ids: [], create_new_version_role_ids: [] },
      archived_step: { role_ids: [] },
    });
    expect(workflow.json).toMatchObject({ codename: 'posts_only' });
    const reviewStep = (workflow.json['steps'] as { id: string }[])[0]?.id;
    await call('/items', 'POST', { name: 'Home', codename: 'home', type: { codename: 'page' } });
    const upsert = await server.client
      .upsertLanguageVariant()
      .byItemCodename('home')
      .byLanguageCodename('default')
      .withData(() => ({
        elements: [],
        workflow: { workflow_identifier: { codename: 'posts_only' }, step_identifier: { codename: 'review' } },
      }))
      .toPromise();
    expect(upsert.rawData.workflow.workflow_identifier.id).toBe(workflow.json['id']);
    expect(upsert.rawData.workflow.step_identifier.id).toBe(reviewStep);

    await call('/items', 'POST', { name: 'Other', codename: 'other', type: { codename: 'page' } });
    await call('/items/codename/other/variants/codename/default', 'PUT', { elements: [] });
    const change = await call('/items/codename/other/variants/codename/default/change-workflow', 'PUT', {
      workflow_identifier: { codename: 'posts_only' },
      step_identifier: { codename: 'review' },
    });
    expect(change.status).toBe(400);
  });

  it('accepts a figure whose inner <img> names the asset by external id, as data-ops rewrites it', async () => {
    await call('/types', 'POST', {
      name: 'Article',
      codename: 'article',
      elements: [{ name: 'Body', codename: 'body', type: 'rich_text' }],
    });
    const png = smallPng();
    const file = await server.client
      .uploadBinaryFile()
      .withData({ binaryData: png, contentType: 'image/png', filename: 'a.png', contentLength: png.length })
      .toPromise();
    const asset = await call('/assets/external-id/hero', 'PUT', {
      file_reference: { id: file.data.id, type: 'internal' },
      title: 'Hero',
    });
    const assetId = asset.json['id'] as string;
    await call('/items', 'POST', { name: 'Story', codename: 'story', type: { codename: 'article' } });
    const html = '<figure data-asset-external-id="hero"><img src="#" data-asset-external-id="hero"></figure>';
    const upsert = await call('/items/codename/story/variants/codename/default', 'PUT', {
      elements: [{ element: { codename: 'body' }, value: html }],
    });
    expect(upsert.status).toBe(201);
    const body = (upsert.json['elements'] as Json[])[0];
    expect(body?.['value']).toBe(
      `<figure data-asset-id="${assetId}"><img src="#" data-asset-id="${assetId}"></figure>`,
    );
    const wrong = await call('/items/codename/story/variants/codename/default', 'PUT', {
      elements: [
        {
          element: { codename: 'body' },
          value: '<figure data-asset-external-id="hero"><img src="#" data-asset-external-id="other"></figure>',
        },
      ],
    });
    expect(wrong.status).toBe(400);
  });
});
