import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

let server: TestManagement;
beforeAll(async () => {
  server = await startTestManagement();
  for (let i = 0; i < 120; i++) {
    const res = await server.fetch('/languages', {
      method: 'POST',
      body: JSON.stringify({ name: `L${i}`, codename: `l-${i}` }),
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await server.close();
});

interface LanguagePage {
  languages: { codename: string }[];
  pagination: { continuation_token: string | null; next_page: string | null };
}

describe('paging (reference §1.6)', () => {
  it('pages by the x-continuation header, 100 per page, with next_page the URL without query', async () => {
    const first = (await server.fetch('/languages').then((r) => r.json())) as LanguagePage;
    expect(first.languages).toHaveLength(100);
    expect(first.pagination.continuation_token).toEqual(expect.any(String));
    expect(first.pagination.next_page).toBe(`${server.baseUrl}/projects/${server.projectId}/languages`);
    const second = (await server
      .fetch('/languages', { headers: { 'x-continuation': first.pagination.continuation_token as string } })
      .then((r) => r.json())) as LanguagePage;
    expect(second.languages).toHaveLength(21);
    expect(second.pagination).toEqual({ continuation_token: null, next_page: null });
    const codenames = [...first.languages, ...second.languages].map((l) => l.codename);
    expect(new Set(codenames).size).toBe(121);
  });

  it('still accepts the deprecated continuationToken query parameter', async () => {
    const first = (await server.fetch('/languages').then((r) => r.json())) as LanguagePage;
    const second = (await server
      .fetch(`/languages?continuationToken=${encodeURIComponent(first.pagination.continuation_token as string)}`)
      .then((r) => r.json())) as LanguagePage;
    expect(second.languages).toHaveLength(21);
  });

  it('refuses a malformed token with 400 and error_code 1007', async () => {
    const res = await server.fetch('/languages', { headers: { 'x-continuation': 'not-a-token' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error_code: number }).error_code).toBe(1007);
  });

  it('lets the SDK walk every page', async () => {
    const all = await server.client.listLanguages().toAllPromise();
    expect(all.data.items).toHaveLength(121);
  });
});

describe('tolerance and concurrency', () => {
  it('ignores read-only and unknown fields that tools post back', async () => {
    const res = await server.fetch('/languages', {
      method: 'POST',
      body: JSON.stringify({
        id: '11111111-1111-4111-8111-111111111111',
        name: 'Exported',
        codename: 'exported',
        is_default: false,
        last_modified: 'x',
        whatever: 1,
      }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { id: string }).id).not.toBe('11111111-1111-4111-8111-111111111111');
  });

  it('applies concurrent modifications of one language one after the other, losing none', async () => {
    const lang = (await server
      .fetch('/languages', { method: 'POST', body: JSON.stringify({ name: 'Base', codename: 'base' }) })
      .then((r) => r.json())) as { id: string };
    const ops = [
      { op: 'replace', property_name: 'name', value: 'Renamed' },
      { op: 'replace', property_name: 'codename', value: 'renamed' },
      { op: 'replace', property_name: 'is_active', value: false },
    ];
    const results = await Promise.all(
      ops.map((op) => server.fetch(`/languages/${lang.id}`, { method: 'PATCH', body: JSON.stringify([op]) })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const final = await server.fetch(`/languages/${lang.id}`).then((r) => r.json());
    expect(final).toMatchObject({ name: 'Renamed', codename: 'renamed', is_active: false });
  });
});
