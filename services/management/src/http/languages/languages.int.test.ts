import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

const zero = '00000000-0000-0000-0000-000000000000';
let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

describe('languages through @kontent-ai/management-sdk', () => {
  it('lists the default language with the all-zero id', async () => {
    const response = await server.client.listLanguages().toPromise();
    const raw = response.rawData as unknown as { languages: Record<string, unknown>[]; pagination: unknown };
    expect(raw.languages[0]).toEqual({
      id: zero,
      name: 'Default project language',
      codename: 'default',
      is_active: true,
      is_default: true,
      fallback_language: { id: zero },
    });
    expect(raw.pagination).toEqual({ continuation_token: null, next_page: null });
  });

  it('adds, reads (by id, codename, external id) and modifies a language', async () => {
    const added = await server.client
      .addLanguage()
      .withData({
        name: 'Czech',
        codename: 'cs-CZ',
        external_id: 'lang-cs',
        is_active: true,
        fallback_language: { codename: 'default' },
      })
      .toPromise();
    expect(added.rawData).toMatchObject({
      name: 'Czech',
      codename: 'cs-CZ',
      external_id: 'lang-cs',
      is_active: true,
      is_default: false,
      fallback_language: { id: zero },
    });
    const id = added.data.id;
    const view = () => server.client.viewLanguage();
    for (const query of [view().byLanguageId(id), view().byLanguageCodename('cs-CZ'), view().byExternalId('lang-cs')]) {
      expect((await query.toPromise()).data.id).toBe(id);
    }
    const slovak = await server.client
      .addLanguage()
      .withData({ name: 'Slovak', codename: 'sk-SK', fallback_language: { id } })
      .toPromise();
    const modified = await server.client
      .modifyLanguage()
      .byLanguageId(slovak.data.id)
      .withData([
        { op: 'replace', property_name: 'name', value: 'Slovenčina' },
        { op: 'replace', property_name: 'fallback_language', value: { codename: 'default' } },
      ])
      .toPromise();
    expect(modified.rawData).toMatchObject({ name: 'Slovenčina', fallback_language: { id: zero } });
  });

  it('refuses bad bodies with every problem listed, and changes nothing', async () => {
    const before = await server.fetch('/languages').then((r) => r.json());
    const bad = await server.fetch('/languages', {
      method: 'POST',
      body: JSON.stringify({
        name: '',
        codename: 'has space',
        is_active: 'yes',
        fallback_language: { id: zero, codename: 'default' },
      }),
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error_code: number; validation_errors: { path: string }[] };
    expect(body.error_code).toBe(5);
    expect(body.validation_errors.map((v) => v.path).sort()).toEqual([
      'codename',
      'fallback_language',
      'is_active',
      'name',
    ]);
    const duplicate = await server.fetch('/languages', {
      method: 'POST',
      body: JSON.stringify({ name: 'Again', codename: 'default' }),
    });
    expect(duplicate.status).toBe(400);
    const patch = await server.fetch(`/languages/${zero}`, {
      method: 'PATCH',
      body: JSON.stringify([
        { op: 'replace', property_name: 'name', value: 'Renamed' },
        { op: 'replace', property_name: 'is_active', value: false },
      ]),
    });
    expect(patch.status).toBe(400);
    const wrongOp = await server.fetch(`/languages/${zero}`, {
      method: 'PATCH',
      body: JSON.stringify([{ op: 'remove', property_name: 'name' }]),
    });
    expect(wrongOp.status).toBe(400);
    expect(await server.fetch('/languages').then((r) => r.json())).toEqual(before);
  });

  it('refuses a fallback cycle', async () => {
    const a = await server.client.addLanguage().withData({ name: 'A', codename: 'a' }).toPromise();
    const b = await server.client
      .addLanguage()
      .withData({ name: 'B', codename: 'b', fallback_language: { id: a.data.id } })
      .toPromise();
    const cycle = await server.fetch(`/languages/${a.data.id}`, {
      method: 'PATCH',
      body: JSON.stringify([{ op: 'replace', property_name: 'fallback_language', value: { id: b.data.id } }]),
    });
    expect(cycle.status).toBe(400);
  });

  it('answers in the shape of the recorded responses', async () => {
    const dir = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses/languages';
    const list = await server.fetch('/languages').then((r) => r.json());
    expect(shapeDifferences(list, readFixture(`${dir}/fake-list-languages.json`))).toEqual([]);
    const one = await server.fetch('/languages/codename/default').then((r) => r.json());
    expect(shapeDifferences(one, readFixture(`${dir}/fake-view-language.json`), { ignore: ['$.external_id'] })).toEqual(
      [],
    );
  });

  it('answers 404 for unknown languages and 405 for DELETE', async () => {
    const missing = await server.fetch('/languages/codename/xx');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error_code: number }).error_code).toBe(111);
    expect((await server.fetch(`/languages/${zero}`, { method: 'DELETE' })).status).toBe(405);
  });
});
