import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const fixtures = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/taxonomies';
let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

interface TermJson {
  id: string;
  name: string;
  codename: string;
  external_id?: string;
  terms: TermJson[];
}
interface TaxonomyJson extends TermJson {
  last_modified: string;
}

const personas = {
  name: 'Personas',
  external_id: 'Tax-Group-123',
  terms: [
    {
      name: 'Coffee expert',
      external_id: 'Tax-term-456',
      terms: [
        { name: 'Barista', external_id: 'Tax-term-789', terms: [] },
        { name: 'Cafe owner', external_id: 'Tax-term-101' },
      ],
    },
    { name: 'Coffee enthusiast', codename: 'enthusiast', terms: [] },
  ],
};

const codenames = (terms: TermJson[]): unknown[] =>
  terms.map((t) => (t.terms.length === 0 ? t.codename : [t.codename, codenames(t.terms)]));

async function rawTaxonomy(path: string): Promise<TaxonomyJson> {
  return (await server.fetch(`/taxonomies/${path}`).then((r) => r.json())) as TaxonomyJson;
}

describe('taxonomies through @kontent-ai/management-sdk', () => {
  it('adds a group with a term tree, reads it by every identifier, lists and deletes it', async () => {
    const added = await server.client.addTaxonomy().withData(personas).toPromise();
    const raw = added.rawData as unknown as TaxonomyJson;
    expect(raw).toMatchObject({ name: 'Personas', codename: 'personas', external_id: 'Tax-Group-123' });
    expect(codenames(raw.terms)).toEqual([['coffee_expert', ['barista', 'cafe_owner']], 'enthusiast']);
    expect(raw.terms[0]?.terms[1]?.terms).toEqual([]);
    expect(raw.terms[1]).not.toHaveProperty('external_id');
    expect(shapeDifferences(raw, readFixture(`${fixtures}/fake-add-taxonomy.json`))).toEqual([]);

    const get = () => server.client.getTaxonomy();
    for (const query of [
      get().byTaxonomyId(raw.id),
      get().byTaxonomyCodename('personas'),
      get().byTaxonomyExternalId('Tax-Group-123'),
    ]) {
      expect((await query.toPromise()).data.terms[0]?.terms[0]?.codename).toBe('barista');
    }
    const list = await server.client.listTaxonomies().toPromise();
    expect(list.data.items.map((t) => t.codename)).toContain('personas');
    expect(shapeDifferences(list.rawData, readFixture(`${fixtures}/fake-list-taxonomies.json`))).toEqual([]);

    await server.client.deleteTaxonomy().byTaxonomyCodename('personas').toPromise();
    expect((await server.fetch(`/taxonomies/${raw.id}`)).status).toBe(404);
  });

  it('derives term ids from external ids, and resolves them the same way every time', async () => {
    const first = (
      await server.client
        .addTaxonomy()
        .withData({ name: 'Ids', terms: [{ name: 'T', external_id: 'ext-t' }] })
        .toPromise()
    ).rawData as unknown as TaxonomyJson;
    await server.client.deleteTaxonomy().byTaxonomyId(first.id).toPromise();
    const second = (
      await server.client
        .addTaxonomy()
        .withData({ name: 'Ids', terms: [{ name: 'T', external_id: 'ext-t' }] })
        .toPromise()
    ).rawData as unknown as TaxonomyJson;
    expect(second.terms[0]?.id).toBe(first.terms[0]?.id);
    await server.client.deleteTaxonomy().byTaxonomyId(second.id).toPromise();
  });

  it('modifies a group with every operation of the reference/property_name dialect', async () => {
    await server.client
      .addTaxonomy()
      .withData({
        name: 'Categories',
        codename: 'categories',
        external_id: 'my-little-taxopony',
        terms: [
          { name: 'First', codename: 'first_term', terms: [{ name: 'Second', codename: 'second_term', terms: [] }] },
          { name: 'Unused', external_id: 'unused-term', terms: [] },
        ],
      })
      .toPromise();
    const modified = await server.client
      .modifyTaxonomy()
      .byTaxonomyExternalId('my-little-taxopony')
      .withData([
        { op: 'replace', property_name: 'name', value: 'Category' },
        { op: 'replace', property_name: 'codename', value: 'category' },
        { op: 'replace', reference: { codename: 'first_term' }, property_name: 'name', value: 'First-level' },
        { op: 'remove', reference: { externalId: 'unused-term' } },
        {
          op: 'addInto',
          reference: { codename: 'second_term' },
          value: { name: 'Third-level taxonomy term', terms: [] },
        },
        { op: 'addInto', value: { name: 'New taxonomy term', external_id: 'my-new-term', terms: [] } },
        { op: 'move', reference: { externalId: 'my-new-term' }, under: { codename: 'second_term' } },
        { op: 'addInto', value: { name: 'Zero', codename: 'zero' }, before: { codename: 'first_term' } },
        { op: 'move', reference: { codename: 'zero' }, after: { codename: 'first_term' } },
        { op: 'replace', reference: { codename: 'zero' }, property_name: 'terms', value: [{ name: 'Z1' }] },
      ])
      .toPromise();
    const raw = modified.rawData as unknown as TaxonomyJson;
    expect(raw).toMatchObject({ name: 'Category', codename: 'category' });
    expect(raw.terms[0]?.name).toBe('First-level');
    expect(codenames(raw.terms)).toEqual([
      ['first_term', [['second_term', ['third_level_taxonomy_term', 'new_taxonomy_term']]]],
      ['zero', ['z1']],
    ]);
    expect(shapeDifferences(raw, readFixture(`${fixtures}/fake-update-taxonomy.json`))).toEqual([]);
    expect(await rawTaxonomy('codename/category')).toEqual(raw);
  });

  it('accepts the path form of operations', async () => {
    await server.client
      .addTaxonomy()
      .withData({ name: 'Paths', terms: [{ name: 'A', codename: 'a', terms: [] }] })
      .toPromise();
    const response = await server.fetch('/taxonomies/codename/paths', {
      method: 'PATCH',
      body: JSON.stringify([
        { op: 'replace', path: '/name', value: 'Path form' },
        { op: 'addInto', path: '/terms/codename:a/terms', value: { name: 'B', codename: 'b' } },
        { op: 'replace', path: '/terms/codename:a/terms/codename:b/name', value: 'Bee' },
        { op: 'addInto', path: '/terms', value: { name: 'C', codename: 'c' } },
        { op: 'remove', path: '/terms/codename:c' },
      ]),
    });
    expect(response.status).toBe(200);
    const raw = (await response.json()) as TaxonomyJson;
    expect(raw.name).toBe('Path form');
    expect(raw.terms).toMatchObject([{ codename: 'a', terms: [{ codename: 'b', name: 'Bee', terms: [] }] }]);
  });

  it('applies concurrent PATCHes of one group one after the other, losing none', async () => {
    const group = (await server.client.addTaxonomy().withData({ name: 'Busy', terms: [] }).toPromise())
      .rawData as unknown as TaxonomyJson;
    const names = ['One', 'Two', 'Three', 'Four', 'Five'];
    await Promise.all(
      names.map((name) =>
        server.client
          .modifyTaxonomy()
          .byTaxonomyId(group.id)
          .withData([{ op: 'addInto', value: { name, terms: [] } }])
          .toPromise(),
      ),
    );
    const after = await rawTaxonomy(group.id);
    expect(after.terms.map((t) => t.name).sort()).toEqual([...names].sort());
  });

  it('refuses bad bodies with every problem listed, and changes nothing', async () => {
    await server.client
      .addTaxonomy()
      .withData({ name: 'Stable', terms: [{ name: 'Kept', codename: 'kept', terms: [] }] })
      .toPromise();
    const before = await server.fetch('/taxonomies').then((r) => r.json());
    const post = async (body: unknown) => {
      const r = await server.fetch('/taxonomies', { method: 'POST', body: JSON.stringify(body) });
      expect(r.status).toBe(400);
      return ((await r.json()) as { error_code: number; validation_errors: { path?: string }[] }).validation_errors;
    };
    const paths = (errors: { path?: string }[]) => errors.map((e) => e.path).sort();
    expect(paths(await post({ name: 42, codename: 'Bad Codename', external_id: 7 }))).toEqual([
      'codename',
      'external_id',
      'name',
      'terms',
    ]);
    expect(
      paths(
        await post({
          name: 'X',
          terms: [
            { name: 'A', codename: 'dup' },
            { name: '', terms: 'no' },
            { name: 'B', codename: 'dup' },
          ],
        }),
      ),
    ).toEqual(['terms[1].name', 'terms[1].terms']);
    expect(
      paths(
        await post({
          name: 'X',
          terms: [
            { name: 'A', codename: 'dup' },
            { name: 'B', codename: 'dup' },
          ],
        }),
      ),
    ).toEqual(['terms[1].codename']);
    expect(paths(await post({ name: 'Again', codename: 'stable', terms: [] }))).toEqual(['codename']);

    const patch = async (operations: unknown) => {
      const r = await server.fetch('/taxonomies/codename/stable', {
        method: 'PATCH',
        body: JSON.stringify(operations),
      });
      expect(r.status).toBe(400);
      return ((await r.json()) as { error_code: number; validation_errors: { path?: string; message: string }[] })
        .validation_errors;
    };
    const errors = await patch([
      { op: 'replace', property_name: 'name', value: 'Changed' },
      { op: 'remove', reference: { codename: 'missing' } },
      { op: 'replace', reference: { id: 'x', codename: 'kept' }, property_name: 'name', value: 'Y' },
      { op: 'frobnicate' },
      { op: 'addInto', value: { name: 'Dup', codename: 'kept' } },
      { op: 'move', reference: { codename: 'kept' } },
      { op: 'replace', property_name: 'codename', value: 'Not valid' },
    ]);
    expect(paths(errors)).toEqual(['[1].reference', '[2].reference', '[3].op', '[4]', '[5].before', '[6].value']);
    expect(errors.find((e) => e.path === '[1].reference')?.message).toBe(
      "Invalid operation with index '1': The referenced object was not found.",
    );
    await patch([]);
    await patch({ op: 'replace' });
    expect(await server.fetch('/taxonomies').then((r) => r.json())).toEqual(before);
  });

  it('answers 404 for unknown groups and 405 for unsupported methods', async () => {
    const missing = await server.fetch('/taxonomies/codename/nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error_code: number }).error_code).toBe(107);
    expect((await server.fetch('/taxonomies/external-id/nope', { method: 'DELETE' })).status).toBe(404);
    expect((await server.fetch('/taxonomies', { method: 'DELETE' })).status).toBe(405);
    expect((await server.fetch('/taxonomies/codename/stable', { method: 'PUT', body: '{}' })).status).toBe(405);
  });
});
