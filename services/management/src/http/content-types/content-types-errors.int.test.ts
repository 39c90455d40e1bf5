import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type ErrorBody = {
  request_id: string;
  error_code: number;
  message: string;
  validation_errors?: { path?: string; message: string }[];
};

let server: TestManagement;

async function send(path: string, method: string, body: unknown): Promise<{ status: number; body: ErrorBody }> {
  const response = await server.fetch(path, { method, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

async function snapshot(): Promise<unknown> {
  return [await (await server.fetch('/types')).json(), await (await server.fetch('/snippets')).json()];
}

beforeAll(async () => {
  server = await startTestManagement();
  await server.client
    .addContentTypeSnippet()
    .withData((b) => ({ name: 'SEO', codename: 'seo', elements: [b.textElement({ name: 'Title', type: 'text' })] }))
    .toPromise();
  await server.client
    .addContentType()
    .withData((b) => ({
      name: 'Page',
      codename: 'page',
      elements: [
        b.textElement({ name: 'Title', type: 'text', external_id: 'title' }),
        b.multipleChoiceElement({ name: 'Kind', type: 'multiple_choice', mode: 'single', options: [{ name: 'A' }] }),
      ],
    }))
    .toPromise();
});
afterAll(async () => {
  await server.close();
});

describe('malformed content type and snippet bodies', () => {
  it('lists every problem of a bad POST /types with its path and stores nothing', async () => {
    const before = await snapshot();
    const { status, body } = await send('/types', 'POST', {
      name: 42,
      codename: 'Bad Codename',
      content_groups: [{ name: 'G', external_id: 'g' }],
      elements: [
        {
          name: 'A',
          type: 'text',
          content_group: { external_id: 'g' },
          maximum_text_length: { value: -1, applies_to: 'lines' },
        },
        { name: 'B', type: 'hologram', content_group: { external_id: 'g' } },
        { name: 'C', type: 'number', content_group: { external_id: 'g', codename: 'g' } },
        { name: 'D', type: 'text', codename: 'dup', content_group: { external_id: 'g' } },
        { name: 'E', type: 'text', codename: 'dup', content_group: { external_id: 'g' } },
        { name: 'F', type: 'text' },
        { type: 'multiple_choice', name: 'M', options: 'none', content_group: { external_id: 'g' } },
        { type: 'taxonomy', taxonomy_group: { codename: 'missing' }, content_group: { external_id: 'g' } },
        { type: 'snippet', snippet: { codename: 'missing' }, content_group: { external_id: 'g' } },
        {
          name: 'U',
          type: 'url_slug',
          depends_on: { element: { codename: 'c' } },
          content_group: { external_id: 'g' },
        },
        {
          name: 'V',
          type: 'url_slug',
          depends_on: { element: { codename: 'a' } },
          content_group: { external_id: 'g' },
        },
        {
          name: 'R',
          type: 'rich_text',
          allowed_blocks: ['images', 'text', 'tables', 'components-and-items'],
          allowed_formatting: ['bold', 'blink'],
          content_group: { external_id: 'g' },
        },
        {
          name: 'X',
          type: 'custom',
          source_url: 'not a url',
          json_parameters: '{oops',
          content_group: { external_id: 'g' },
        },
      ],
    });
    expect(status).toBe(400);
    expect(body.error_code).toBe(5);
    expect(typeof body.request_id).toBe('string');
    const paths = (body.validation_errors ?? []).map((v) => v.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'name',
        'codename',
        'elements[0].maximum_text_length.value',
        'elements[0].maximum_text_length.applies_to',
        'elements[1].type',
        'elements[2].content_group',
        'elements[4].codename',
        'elements[5].content_group',
        'elements[6].mode',
        'elements[6].options',
        'elements[7].taxonomy_group',
        'elements[8].snippet',
        'elements[9].depends_on.element',
        'elements[10]',
        'elements[11].allowed_blocks',
        'elements[11].allowed_formatting[1]',
        'elements[12].source_url',
        'elements[12].json_parameters',
      ]),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a body that is not an object, a missing elements array and a taken codename', async () => {
    expect((await send('/types', 'POST', '[1,2]')).status).toBe(400);
    expect((await send('/types', 'POST', '{"name": "x"')).status).toBe(400);
    const missing = await send('/types', 'POST', { name: 'No elements' });
    expect(missing.body.validation_errors?.map((v) => v.path)).toEqual(['elements']);
    const taken = await send('/types', 'POST', { name: 'Page', codename: 'page', elements: [] });
    expect(taken.body.validation_errors?.map((v) => v.path)).toEqual(['codename']);
  });

  it('refuses snippet and url_slug elements in snippets, and duplicate codenames with a used snippet', async () => {
    const before = await snapshot();
    const bad = await send('/snippets', 'POST', {
      name: 'Nested',
      elements: [
        { type: 'snippet', snippet: { codename: 'seo' } },
        { name: 'Slug', type: 'url_slug', depends_on: { element: { codename: 'x' } } },
        { name: 'Ok', type: 'text', codename: 'Not OK' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.validation_errors?.map((v) => v.path)).toEqual([
      'elements[0].type',
      'elements[1].type',
      'elements[2].codename',
    ]);
    const clash = await send('/types', 'POST', {
      name: 'Clash',
      elements: [
        { name: 'Own', type: 'text', codename: 'seo__title' },
        { type: 'snippet', snippet: { codename: 'seo' } },
        { type: 'snippet', snippet: { codename: 'seo' } },
      ],
    });
    expect(clash.status).toBe(400);
    expect(clash.body.validation_errors?.map((v) => v.path)).toEqual(
      expect.arrayContaining(['elements[1].codename', 'elements[2].snippet']),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad PATCH operations all or nothing, naming the operation index', async () => {
    const before = await snapshot();
    const cases: [unknown, string][] = [
      [{ op: 'replace', path: '/name', value: 'x' }, ''],
      [[], ''],
      [[{ op: 'add', path: '/elements', value: {} }], '[0].op'],
      [[{ op: 'replace', path: 'elements', value: 'x' }], '[0].path'],
      [[{ op: 'replace', path: '/elements/codename:nope/name', value: 'x' }], '[0]'],
      [[{ op: 'replace', path: '/elements/codename:title/type', value: 'number' }], '[0]'],
      [[{ op: 'replace', path: '/elements/codename:title/external_id', value: 'other' }], '[0]'],
      [[{ op: 'move', path: '/elements/codename:title' }], '[0]'],
      [
        [
          { op: 'replace', path: '/name', value: 'Fine' },
          { op: 'addInto', path: '/elements', value: { name: 'T2', type: 'text', codename: 'title' } },
        ],
        '[1]',
      ],
      [[{ op: 'replace', path: '/codename', value: 'Bad Codename' }], '[0]'],
      [[{ op: 'addInto', path: '/elements', value: { type: 'hologram', name: 'H' } }], '[0]'],
      [
        [
          {
            op: 'addInto',
            path: '/elements',
            value: { name: 'Slug', type: 'url_slug', depends_on: { element: { codename: 'kind' } } },
          },
        ],
        '[0]',
      ],
      [[{ op: 'addInto', path: '/content_groups', value: { name: 'G' } }], '[0]'],
      [[{ op: 'remove', path: '/elements/codename:kind/options/codename:zzz' }], '[0]'],
      [[{ op: 'addInto', path: '/elements/codename:title/options', value: { name: 'x' } }], '[0]'],
    ];
    for (const [operations, path] of cases) {
      const { status, body } = await send('/types/codename/page', 'PATCH', operations);
      expect(status, JSON.stringify(operations)).toBe(400);
      expect(body.error_code).toBe(5);
      if (path !== '') {
        expect(body.validation_errors?.[0]?.path, JSON.stringify(body)).toBe(path);
        expect(body.validation_errors?.[0]?.message).toMatch(/^Invalid operation with index '\d+': /);
      }
    }
    const snippetPatch = await send('/snippets/codename/seo', 'PATCH', [
      { op: 'addInto', path: '/elements', value: { type: 'snippet', snippet: { codename: 'seo' } } },
    ]);
    expect(snippetPatch.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps every one of five concurrent addInto operations on one type', async () => {
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        server.client
          .modifyContentType()
          .byTypeCodename('page')
          .withData([{ op: 'addInto', path: '/elements', value: { name: `Parallel ${n}`, type: 'number' } }])
          .toPromise(),
      ),
    );
    const page = await server.client.viewContentType().byTypeCodename('page').toPromise();
    expect(page.data.elements.map((e) => e.codename).sort()).toEqual(
      ['kind', 'parallel_1', 'parallel_2', 'parallel_3', 'parallel_4', 'parallel_5', 'title'].sort(),
    );
  });
});
