import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { seedContentModel, type TestModel } from './test-model.ts';

type Json = Record<string, unknown>;
const path = '/items/codename/target/variants/codename/default';
let server: TestManagement;
let model: TestModel;

async function call(url: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

function paths(json: Json): string[] {
  return ((json['validation_errors'] ?? []) as Json[]).map((e) => String(e['path']));
}

beforeAll(async () => {
  server = await startTestManagement();
  model = await seedContentModel(server);
  await call('/items', 'POST', { name: 'Target', type: { codename: 'article' } });
  await call('/items', 'POST', { name: 'Widget item', type: { codename: 'widget' } });
  await call(path, 'PUT', { elements: [{ element: { codename: 'title' }, value: 'Kept' }] });
});
afterAll(async () => {
  await server.close();
});

describe('variant upsert refuses malformed input with validation errors and changes nothing', () => {
  const cases: [string, unknown[], string[]][] = [
    [
      'wrong value types',
      [
        { element: { codename: 'title' }, value: 42 },
        { element: { codename: 'count' }, value: 'many' },
        { element: { codename: 'date' }, value: '2014-13-07T00:00:00Z' },
        { element: { codename: 'kind' }, value: 'news' },
      ],
      ['elements[0].value', 'elements[1].value', 'elements[2].value', 'elements[3].value'],
    ],
    [
      'unknown elements and options',
      [
        { element: { codename: 'nope' }, value: 'x' },
        { element: { codename: 'kind' }, value: [{ codename: 'nope' }] },
      ],
      ['elements[0].element', 'elements[1].value[0]'],
    ],
    [
      'limits of the type',
      [
        { element: { codename: 'title' }, value: 'x'.repeat(61) },
        { element: { codename: 'code' }, value: 'lowercase' },
        { element: { codename: 'kind' }, value: [{ codename: 'news' }, { codename: 'blog' }] },
        { element: { codename: 'image' }, value: [{ external_id: 'a' }, { external_id: 'b' }] },
      ],
      ['elements[0].value', 'elements[1].value', 'elements[2].value', 'elements[3].value'],
    ],
    [
      'references to missing objects',
      [
        {
          element: { codename: 'related' },
          value: [{ id: '8e3b1f5e-1111-4111-8111-111111111111' }, { codename: 'missing' }],
        },
        { element: { codename: 'related' }, value: [] },
        { element: { codename: 'topics' }, value: [{ codename: 'tea' }] },
        { element: { codename: 'image' }, value: [{ id: '8e3b1f5e-2222-4222-8222-222222222222' }] },
      ],
      [
        'elements[0].value[0]',
        'elements[0].value[1]',
        'elements[1].value',
        'elements[2].value[0]',
        'elements[3].value[0]',
      ],
    ],
    [
      'a linked item of a type the element does not allow',
      [{ element: { codename: 'related' }, value: [{ codename: 'widget_item' }] }],
      ['elements[0].value[0]'],
    ],
    [
      'a URL slug without mode, a bad time zone',
      [
        { element: { codename: 'slug' }, value: 'my-slug' },
        { element: { codename: 'date' }, value: '2020-01-01T00:00:00Z', display_timezone: 'Mars/Olympus' },
      ],
      ['elements[0].mode', 'elements[1].display_timezone'],
    ],
    [
      'bad rich text',
      [{ element: { codename: 'body' }, value: '<a href="https://example.com">top-level link</a>' }],
      ['elements[0].value'],
    ],
    [
      'components that do not match the HTML',
      [
        {
          element: { codename: 'body' },
          value:
            '<p>x</p><object type="application/kenticocloud" data-type="component" data-id="11111111-1111-4111-8111-111111111111"></object>',
          components: [
            {
              id: '22222222-2222-4222-8222-222222222222',
              type: { codename: 'widget' },
              elements: [{ element: { codename: 'caption' }, value: 1 }],
            },
          ],
        },
      ],
      ['elements[0].components[0].elements[0].value', 'elements[0].components[0]', 'elements[0].value'],
    ],
  ];

  it.each(cases)('%s', async (_name, elements, expected) => {
    const response = await call(path, 'PUT', { elements });
    expect(response.status).toBe(400);
    expect(response.json['error_code']).toBe(5);
    expect(paths(response.json).sort()).toEqual([...expected].sort());
    const stored = await call(path, 'GET');
    const title = (stored.json['elements'] as { element: { id: string }; value: unknown }[]).find(
      (e) => e.element.id === model.element('title'),
    );
    expect(title?.value).toBe('Kept');
  });

  it('refuses a body without elements, and components nested deeper than six levels', async () => {
    expect(paths((await call(path, 'PUT', {})).json)).toEqual(['elements']);
    let inner: Json[] = [];
    let html = '<p>leaf</p>';
    for (let level = 7; level >= 1; level--) {
      const id = `00000000-0000-4000-8000-00000000000${level}`;
      const component = {
        id,
        type: { codename: 'widget' },
        elements: [
          { element: { codename: 'caption' }, value: `level ${level}` },
          { element: { codename: 'inner' }, value: html, components: inner },
        ],
      };
      html = `<object type="application/kenticocloud" data-type="component" data-id="${id}"></object>`;
      inner = [component];
    }
    const deep = await call(path, 'PUT', {
      elements: [{ element: { codename: 'body' }, value: html, components: inner }],
    });
    expect(deep.status).toBe(400);
    expect(JSON.stringify(deep.json)).toContain('Components nest at most 6 levels');
  });

  it('refuses to publish with a required element empty (400 with validation errors)', async () => {
    await call('/items', 'POST', { name: 'Empty', type: { codename: 'article' } });
    await call('/items/codename/empty/variants/codename/default', 'PUT', { elements: [] });
    const refused = await call('/items/codename/empty/variants/codename/default/publish', 'PUT');
    expect(refused.status).toBe(400);
    expect(paths(refused.json)).toEqual(['elements.title']);
    const variant = await call('/items/codename/empty/variants/codename/default', 'GET');
    expect(variant.json['workflow_step']).toEqual({ id: 'eee6db3b-545a-4785-8e86-e3772c8756f9' });
  });

  it('answers 404 for a missing item (100), variant (103) or language, and never creates the item', async () => {
    expect(await call('/items/codename/nope/variants/codename/default', 'PUT', { elements: [] })).toMatchObject({
      status: 404,
      json: { error_code: 100 },
    });
    expect(await call('/items/codename/empty/variants/codename/es-ES', 'GET')).toMatchObject({
      status: 404,
      json: { error_code: 103 },
    });
    expect((await call('/items/codename/empty/variants/codename/xx', 'GET')).status).toBe(404);
  });

  it('fills non-localizable values only in the default language; other languages show them', async () => {
    await call(path, 'PUT', { elements: [{ element: { codename: 'code' }, value: 'ABC' }] });
    const created = await call('/items/codename/target/variants/codename/es-ES', 'PUT', {
      elements: [
        { element: { codename: 'title' }, value: 'Objetivo' },
        { element: { codename: 'code' }, value: 'XYZ' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.json['language']).toEqual({ id: model.spanishId });
    const code = (created.json['elements'] as { element: { id: string }; value: unknown }[]).find(
      (e) => e.element.id === model.element('code'),
    );
    expect(code?.value).toBe('ABC');
  });

  it('resolves item codenames in rich text links and refuses unknown ones', async () => {
    const html = '<p>See <a data-item-codename="widget_item">the widget</a>.</p>';
    const ok = await call('/items/codename/empty/variants/codename/default', 'PUT', {
      elements: [{ element: { codename: 'body' }, value: html }],
    });
    expect(ok.status).toBe(200);
    const widget = await call('/items/codename/widget_item', 'GET');
    expect(JSON.stringify(ok.json)).toContain(`data-item-id=\\"${String(widget.json['id'])}\\"`);
    const bad = await call('/items/codename/empty/variants/codename/default', 'PUT', {
      elements: [{ element: { codename: 'body' }, value: '<p><a data-item-codename="nope">x</a></p>' }],
    });
    expect(bad.status).toBe(400);
    expect(paths(bad.json)).toEqual(['elements[0].value']);
  });
});
