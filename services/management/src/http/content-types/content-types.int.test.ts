import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFromExternalId } from '@lectern/core';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type Json = Record<string, unknown>;
type Element = Json & { id: string; codename: string; type: string };
type TypeJson = Json & { id: string; codename: string; content_groups: Json[]; elements: Element[] };

const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses';
const recorded =
  'management/kontent-ai+management-sdk-net/_historical/5a313dd59951bf77dd7f52b7446645609af1bcad/Kentico.Kontent.Management.Tests/Data';
const taxonomyId = '41f013c2-d3a6-4fbf-af1f-466f6326e5c4';
let server: TestManagement;
let article: TypeJson;

async function json<T = Json>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

beforeAll(async () => {
  server = await startTestManagement();
  // Taxonomies are built elsewhere; a stored group is all a taxonomy element needs.
  await server.core.store.transaction((tx) =>
    tx.model.insert({
      projectId: server.projectId,
      kind: 'taxonomy',
      id: taxonomyId,
      codename: 'topics',
      externalId: 'topics',
      body: {
        name: 'Topics',
        terms: [{ id: '7d4b1d9a-5d0e-4b8e-9d43-2f1f0c8f4a11', name: 'News', codename: 'news', terms: [] }],
      },
      lastModified: new Date(),
    }),
  );
  await server.client
    .addContentTypeSnippet()
    .withData((b) => ({
      name: 'Metadata',
      codename: 'metadata',
      external_id: 'metadata',
      elements: [
        b.textElement({ name: 'Meta title', codename: 'meta_title', type: 'text', guidelines: 'Length: 30–60' }),
        b.textElement({ name: 'Meta description', type: 'text' }),
      ],
    }))
    .toPromise();
});
afterAll(async () => {
  await server.close();
});

describe('content types through @kontent-ai/management-sdk', () => {
  it('adds a type with every element kind, content groups, a snippet and a URL slug from the snippet', async () => {
    const group = { external_id: 'main-group' };
    const added = await server.client
      .addContentType()
      .withData((b) => ({
        name: 'Article',
        codename: 'article',
        external_id: 'article',
        content_groups: [
          { name: 'Main', external_id: 'main-group' },
          { name: 'SEO', codename: 'seo' },
        ],
        elements: [
          b.textElement({
            name: 'Title',
            type: 'text',
            external_id: 'title',
            is_required: true,
            maximum_text_length: { value: 60, applies_to: 'characters' },
            validation_regex: { regex: '^[A-Z]', flags: 'i', is_active: true, validation_message: 'Capital!' },
            default: { global: { value: 'Untitled' } },
            content_group: group,
          }),
          b.richTextElement({
            name: 'Body',
            type: 'rich_text',
            allowed_blocks: ['text', 'components-and-items'],
            allowed_formatting: ['unstyled', 'bold'],
            allowed_content_types: [{ codename: 'article' }, { external_id: 'author' }],
            image_width_limit: { value: 800, condition: 'at_most' },
            content_group: group,
          }),
          b.numberElement({ name: 'Rating', type: 'number', default: { global: { value: 3 } }, content_group: group }),
          b.dateTimeElement({ name: 'Published', type: 'date_time', content_group: group }),
          b.multipleChoiceElement({
            name: 'Format',
            type: 'multiple_choice',
            mode: 'single',
            options: [{ name: 'Long read', external_id: 'long' }, { name: 'Short' }],
            default: { global: { value: [{ codename: 'short' }] } },
            content_group: group,
          }),
          b.assetElement({
            name: 'Cover',
            type: 'asset',
            asset_count_limit: { value: 1, condition: 'exactly' },
            allowed_file_types: 'adjustable',
            content_group: group,
          }),
          b.linkedItemsElement({
            name: 'Related',
            type: 'modular_content',
            item_count_limit: { value: 3, condition: 'at_most' },
            allowed_content_types: [{ codename: 'article' }],
            content_group: group,
          }),
          b.subpagesElement({
            name: 'Children',
            type: 'subpages',
            item_count_limit: { value: 2, condition: 'at_most' },
            content_group: group,
          }),
          b.taxonomyElement({
            type: 'taxonomy',
            taxonomy_group: { codename: 'topics' },
            default: { global: { value: [{ codename: 'news' }] } },
            content_group: group,
          }),
          b.customElement({
            name: 'Color',
            type: 'custom',
            source_url: 'https://example.com/color',
            json_parameters: '{"palette":"web"}',
            allowed_elements: [{ codename: 'title' }],
            content_group: group,
          }),
          b.guidelinesElement({ type: 'guidelines', guidelines: '<p>Write well.</p>', content_group: group }),
          b.snippetElement({ type: 'snippet', snippet: { codename: 'metadata' }, content_group: { codename: 'seo' } }),
          b.urlSlugElement({
            name: 'Slug',
            type: 'url_slug',
            depends_on: { element: { codename: 'meta_title' }, snippet: { codename: 'metadata' } },
            content_group: { codename: 'seo' },
          }),
        ],
      }))
      .toPromise();
    article = added.rawData as unknown as TypeJson;
    expect(article.id).toBe(
      idFromExternalId({ projectId: server.projectId, kind: 'content_type', externalId: 'article' }),
    );
    expect(article.elements.map((e) => e.type)).toEqual([
      'text',
      'rich_text',
      'number',
      'date_time',
      'multiple_choice',
      'asset',
      'modular_content',
      'subpages',
      'taxonomy',
      'custom',
      'guidelines',
      'snippet',
      'url_slug',
    ]);
    const [main, seo] = article.content_groups as { id: string; codename: string }[];
    expect(article.content_groups.map((g) => g['codename'])).toEqual(['main', 'seo']);
    expect(article.elements.map((e) => (e['content_group'] as { id: string }).id)).toEqual([
      ...Array(11).fill(main?.id),
      seo?.id,
      seo?.id,
    ]);
    const byType = (type: string) => article.elements.find((e) => e.type === type) as Element;
    const snippet = await server.client.viewContentTypeSnippet().byTypeCodename('metadata').toPromise();
    const metaTitle = snippet.data.elements.find((e) => e.codename === 'metadata__meta_title');
    expect(metaTitle).toBeDefined();
    expect(byType('url_slug')['depends_on']).toEqual({
      element: { id: metaTitle?.id },
      snippet: { id: snippet.data.id },
    });
    expect(byType('snippet')).toMatchObject({ codename: 'metadata', snippet: { id: snippet.data.id } });
    expect(byType('taxonomy')).toMatchObject({
      name: 'Topics',
      codename: 'topics',
      taxonomy_group: { id: taxonomyId },
      default: { global: { value: [{ id: '7d4b1d9a-5d0e-4b8e-9d43-2f1f0c8f4a11' }] } },
    });
    expect(byType('guidelines').codename).toMatch(/^[a-z_][a-z0-9_]*$/);
    expect(byType('rich_text')).toMatchObject({
      allowed_content_types: [
        { id: article.id },
        { id: idFromExternalId({ projectId: server.projectId, kind: 'content_type', externalId: 'author' }) },
      ],
      allowed_blocks: ['text', 'components-and-items'],
      is_non_localizable: false,
      allowed_image_types: 'any',
    });
    const choice = byType('multiple_choice');
    const options = choice['options'] as { id: string; codename: string }[];
    expect(options.map((o) => o.codename)).toEqual(['long_read', 'short']);
    expect(choice['default']).toEqual({ global: { value: [{ id: options[1]?.id }] } });
    expect(byType('custom')['allowed_elements']).toEqual([{ id: byType('text').id }]);
    expect(byType('text')['validation_regex']).toEqual({
      regex: '^[A-Z]',
      flags: 'i',
      validation_message: 'Capital!',
      is_active: true,
    });
  });

  it('reads the type by id, codename and external id, and lists types with pagination', async () => {
    const view = () => server.client.viewContentType();
    for (const query of [
      view().byTypeId(article.id),
      view().byTypeCodename('article'),
      view().byTypeExternalId('article'),
    ]) {
      expect((await query.toPromise()).rawData).toEqual(article);
    }
    const list = await server.client.listContentTypes().toPromise();
    expect(list.data.items.map((t) => t.codename)).toContain('article');
    expect(list.rawData.pagination).toEqual({ continuation_token: null, next_page: null });
  });

  it('modifies a type with every operation kind, applying them in order', async () => {
    const titleId = article.elements[0]?.id as string;
    const choice = article.elements.find((e) => e.type === 'multiple_choice') as Element;
    const modified = await server.client
      .modifyContentType()
      .byTypeCodename('article')
      .withData([
        { op: 'replace', path: '/name', value: 'Blog article' },
        { op: 'replace', path: '/elements/codename:title/guidelines', value: 'Keep it short.' },
        {
          op: 'replace',
          path: `/elements/id:${titleId}/maximum_text_length`,
          value: { value: 80, applies_to: 'words' },
        },
        {
          op: 'addInto',
          path: `/elements/id:${choice.id}/options`,
          value: { name: 'Video', codename: 'video' },
          before: { codename: 'long_read' },
        },
        { op: 'remove', path: `/elements/id:${choice.id}/options/codename:short` },
        {
          op: 'addInto',
          path: '/elements',
          value: { name: 'Summary', type: 'text', external_id: 'summary', content_group: { codename: 'main' } },
          after: { codename: 'title' },
        },
        { op: 'move', path: '/elements/codename:published', before: { codename: 'title' } },
        { op: 'addInto', path: '/elements/codename:body/allowed_blocks', value: 'images' },
        { op: 'remove', path: `/elements/codename:body/allowed_content_types/codename:article` },
        { op: 'addInto', path: '/content_groups', value: { name: 'Extra', external_id: 'extra' } },
        { op: 'replace', path: '/elements/codename:rating/content_group', value: { external_id: 'extra' } },
        { op: 'replace', path: '/content_groups/codename:seo/name', value: 'Search' },
      ])
      .toPromise();
    const type = modified.rawData as unknown as TypeJson;
    expect(type.name).toBe('Blog article');
    expect(type.codename).toBe('article');
    expect(type.elements.slice(0, 3).map((e) => e.codename)).toEqual(['published', 'title', 'summary']);
    expect(type.elements[2]?.id).toBe(
      idFromExternalId({ projectId: server.projectId, kind: `element@${article.id}`, externalId: 'summary' }),
    );
    const title = type.elements.find((e) => e.codename === 'title') as Element;
    expect(title).toMatchObject({
      guidelines: 'Keep it short.',
      maximum_text_length: { value: 80, applies_to: 'words' },
    });
    const options = (type.elements.find((e) => e.codename === 'format') as Element)['options'] as Json[];
    expect(options.map((o) => o['codename'])).toEqual(['video', 'long_read']);
    const body = type.elements.find((e) => e.codename === 'body') as Element;
    expect(body['allowed_blocks']).toEqual(['text', 'components-and-items', 'images']);
    expect(body['allowed_content_types']).toHaveLength(1);
    expect(type.content_groups.map((g) => g['name'])).toEqual(['Main', 'Search', 'Extra']);
    const extra = type.content_groups[2] as { id: string };
    expect((type.elements.find((e) => e.codename === 'rating') as Element)['content_group']).toEqual({ id: extra.id });
    // The multiple choice default pointed at the removed option, so it no longer names it.
    expect((type.elements.find((e) => e.codename === 'format') as Element)['default']).toEqual({
      global: { value: [] },
    });
    article = type;
  });

  it('accepts the documented op spellings and the deprecated property_name / reference forms', async () => {
    // Op names are case-sensitive: only the spellings Kontent.ai documents (addInto, and addinto of the Learn samples).
    const shouted = await server.fetch('/types/codename/article', {
      method: 'PATCH',
      body: JSON.stringify([{ op: 'REPLACE', path: '/name', value: 'Shouted' }]),
    });
    expect(shouted.status).toBe(400);
    expect(((await shouted.json()) as { validation_errors: { path: string }[] }).validation_errors).toEqual([
      expect.objectContaining({ path: '[0].op' }),
    ]);
    const response = await server.fetch('/types/codename/article', {
      method: 'PATCH',
      body: JSON.stringify([
        { op: 'replace', property_name: 'name', value: 'Article' },
        { op: 'replace', reference: { codename: 'summary' }, property_name: 'guidelines', value: 'One line.' },
        { op: 'addinto', path: '/elements/codename:format/options', value: { name: 'Audio' } },
      ]),
    });
    expect(response.status).toBe(200);
    const type = await json<TypeJson>(response);
    expect(type.name).toBe('Article');
    expect(type.elements.find((e) => e.codename === 'summary')?.['guidelines']).toBe('One line.');
    article = type;
  });

  it('answers in the shape of the recorded responses', async () => {
    const one = await json(await server.fetch('/types/codename/article'));
    expect(shapeDifferences(one, readFixture(`${fakes}/content-types/fake-view-content-type.json`))).toEqual([]);
    const list = await json(await server.fetch('/types'));
    expect(shapeDifferences(list, readFixture(`${fakes}/content-types/fake-list-content-types.json`))).toEqual([]);
    // The real recorded 201 of SDK-NET CreateContentType, element by element of the same kinds.
    const real = readFixture<TypeJson>(`${recorded}/CreateContentType_CreatesContentType/0_POST/response_content.json`);
    expect(shapeDifferences({ ...one, elements: [] }, { ...real, elements: [] })).toEqual([]);
    for (const expected of real.elements) {
      const ours = (one as TypeJson).elements.find((e) => e.type === expected.type);
      expect(shapeDifferences(ours, expected, { ignore: ['$.external_id'] }), expected.type).toEqual([]);
    }
  });

  it('takes the body SDK-NET sends: zero ids, empty codenames, Regex/Flags, groups by external id', async () => {
    const request = readFixture<Json>(`${recorded}/CreateContentType_CreatesContentType/0_POST/request_content.json`);
    const elements = (request['elements'] as Json[]).map((e) =>
      e['type'] === 'taxonomy' ? { ...e, taxonomy_group: { id: taxonomyId } } : e,
    );
    const response = await server.fetch('/types', { method: 'POST', body: JSON.stringify({ ...request, elements }) });
    const created = await json<TypeJson>(response);
    expect(response.status, JSON.stringify(created)).toBe(201);
    expect(created.codename).toBe('hooray_codename_type');
    const byType = (type: string) => created.elements.find((e) => e.type === type) as Element;
    expect(byType('asset').codename).toBe('myasset');
    expect(byType('snippet').codename).toBe('metadata');
    expect(byType('text')['validation_regex']).toMatchObject({
      regex: '^[+]*[(]{0,1}[0-9]{1,4}[)]{0,1}[-\\s./0-9]*$',
      flags: 'i',
    });
    expect(byType('url_slug')['depends_on']).toEqual({ element: { id: byType('text').id } });
    expect(created.elements.every((e) => e.id !== '00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(created.content_groups[0]).toMatchObject({
      codename: 'contentgroupname',
      external_id: 'contentGroupExternalId',
    });
    await server.client.deleteContentType().byTypeExternalId('hooray_codename_external_id').toPromise();
  });

  it('deletes a type by id, codename and external id', async () => {
    for (const [i, by] of (['id', 'codename', 'external'] as const).entries()) {
      const t = await server.client
        .addContentType()
        .withData((b) => ({
          name: `Doomed ${i}`,
          external_id: `doomed-${i}`,
          elements: [b.textElement({ name: 'T', type: 'text' })],
        }))
        .toPromise();
      const del = server.client.deleteContentType();
      await (
        by === 'id'
          ? del.byTypeId(t.data.id)
          : by === 'codename'
            ? del.byTypeCodename(t.data.codename)
            : del.byTypeExternalId(`doomed-${i}`)
      ).toPromise();
      expect((await server.fetch(`/types/${t.data.id}`)).status).toBe(404);
    }
  });

  it('answers 404 with error_code 105 for unknown types and 405 for other methods', async () => {
    for (const path of [
      '/types/codename/nope',
      '/types/external-id/nope',
      '/types/3f2b7a6c-0000-4000-8000-000000000000',
    ]) {
      const missing = await server.fetch(path);
      expect(missing.status).toBe(404);
      expect((await json(missing))['error_code']).toBe(105);
    }
    expect(
      (
        await server.fetch('/types/codename/nope', {
          method: 'PATCH',
          body: '[{"op":"replace","path":"/name","value":"x"}]',
        })
      ).status,
    ).toBe(404);
    expect((await server.fetch('/types/codename/nope', { method: 'DELETE' })).status).toBe(404);
    expect((await server.fetch('/types', { method: 'PUT', body: '{}' })).status).toBe(405);
    expect((await server.fetch('/types/codename/article', { method: 'PUT', body: '{}' })).status).toBe(405);
  });
});
