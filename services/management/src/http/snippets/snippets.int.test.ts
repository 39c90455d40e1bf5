import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type Element = Record<string, unknown> & { id: string; codename: string; type: string };
type SnippetJson = Record<string, unknown> & { id: string; codename: string; elements: Element[] };

const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/content-type-snippets';
const recorded =
  'management/kontent-ai+management-sdk-net/_historical/5a313dd59951bf77dd7f52b7446645609af1bcad/Kentico.Kontent.Management.Tests/Data';
let server: TestManagement;
let metadata: SnippetJson;

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

describe('content type snippets through @kontent-ai/management-sdk', () => {
  it('adds a snippet, prefixing its element codenames with the snippet codename', async () => {
    const added = await server.client
      .addContentTypeSnippet()
      .withData((b) => ({
        name: 'Metadata',
        codename: 'metadata',
        external_id: 'metadata-snippet',
        elements: [
          b.textElement({
            name: 'Meta title',
            type: 'text',
            guidelines: 'Length: 30–60 characters',
            validation_regex: { regex: '^.{30,60}$', is_active: true },
          }),
          b.textElement({ name: 'Meta description', codename: 'description', type: 'text' }),
          b.textElement({ name: 'Keywords', codename: 'metadata__keywords', type: 'text' }),
          b.assetElement({ name: 'Image', type: 'asset', external_id: 'og-image' }),
          b.guidelinesElement({ type: 'guidelines', guidelines: '<p>SEO</p>' }),
        ],
      }))
      .toPromise();
    metadata = added.rawData as unknown as SnippetJson;
    expect(metadata.elements.map((e) => e.codename).slice(0, 4)).toEqual([
      'metadata__meta_title',
      'metadata__description',
      'metadata__keywords',
      'metadata__image',
    ]);
    expect(metadata.elements[4]?.codename).toMatch(/^metadata__/);
    expect(metadata).not.toHaveProperty('content_groups');
  });

  it('reads the snippet by id, codename and external id, and lists snippets', async () => {
    const view = () => server.client.viewContentTypeSnippet();
    for (const q of [
      view().byTypeId(metadata.id),
      view().byTypeCodename('metadata'),
      view().byTypeExternalId('metadata-snippet'),
    ]) {
      expect((await q.toPromise()).rawData).toEqual(metadata);
    }
    const list = await server.client.listContentTypeSnippets().toPromise();
    expect(list.data.items.map((s) => s.codename)).toEqual(['metadata']);
    expect(list.rawData.pagination).toEqual({ continuation_token: null, next_page: null });
  });

  it('modifies a snippet with the operations SDK-NET recorded (addInto before, replace, remove)', async () => {
    const modified = await server.client
      .modifyContentTypeSnippet()
      .byTypeCodename('metadata')
      .withData([
        {
          op: 'addInto',
          path: '/elements',
          value: {
            name: 'Canonical',
            type: 'text',
            id: '00000000-0000-0000-0000-000000000000',
            external_id: 'canonical',
          },
          before: { codename: 'metadata__description' },
        },
        { op: 'replace', path: '/elements/codename:metadata__meta_title/guidelines', value: '<h1>Title</h1>' },
        { op: 'remove', path: '/elements/codename:metadata__keywords' },
        { op: 'replace', path: '/elements/codename:description/codename', value: 'summary' },
        { op: 'replace', path: '/name', value: 'Meta data' },
      ])
      .toPromise();
    const snippet = modified.rawData as unknown as SnippetJson;
    expect(snippet.name).toBe('Meta data');
    expect(snippet.elements.map((e) => e.codename).slice(0, 3)).toEqual([
      'metadata__meta_title',
      'metadata__canonical',
      'metadata__summary',
    ]);
    expect(snippet.elements[0]?.['guidelines']).toBe('<h1>Title</h1>');
    metadata = snippet;
  });

  it('answers in the shape of the recorded responses', async () => {
    const one = await (await server.fetch('/snippets/codename/metadata')).json();
    expect(shapeDifferences(one, readFixture(`${fakes}/fake-view-content-type-snippet.json`))).toEqual([]);
    const list = await (await server.fetch('/snippets')).json();
    expect(shapeDifferences(list, readFixture(`${fakes}/fake-list-content-type-snippets.json`))).toEqual([]);
    const real = readFixture<SnippetJson>(`${recorded}/CreateSnippet_CreatesSnippet/0_POST/response_content.json`);
    expect(shapeDifferences({ ...(one as SnippetJson), elements: [] }, { ...real, elements: [] })).toEqual([]);
    for (const type of ['text', 'asset', 'guidelines']) {
      const ours = (one as SnippetJson).elements.find((e) => e.type === type);
      const expected = real.elements.find((e) => e.type === type);
      expect(shapeDifferences(ours, expected, { ignore: ['$.external_id'] }), type).toEqual([]);
    }
  });

  it('refuses to delete a snippet a content type uses, then deletes it once unused', async () => {
    const type = await server.client
      .addContentType()
      .withData((b) => ({
        name: 'Uses',
        elements: [b.snippetElement({ type: 'snippet', snippet: { id: metadata.id } })],
      }))
      .toPromise();
    const refused = await server.fetch(`/snippets/${metadata.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain('still used');
    await server.client.deleteContentType().byTypeId(type.data.id).toPromise();
    await server.client.deleteContentTypeSnippet().byTypeExternalId('metadata-snippet').toPromise();
    const missing = await server.fetch(`/snippets/${metadata.id}`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error_code: number }).error_code).toBe(109);
    expect((await server.fetch('/snippets', { method: 'DELETE' })).status).toBe(405);
  });
});
