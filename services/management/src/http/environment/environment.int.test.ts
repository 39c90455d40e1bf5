import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

let server: TestManagement;
beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

describe('environment through @kontent-ai/management-sdk', () => {
  it('reads and renames the environment; it stays the production environment', async () => {
    const info = await server.client.environmentInformation().toPromise();
    expect(info.rawData).toEqual({
      id: server.projectId,
      name: 'Test project',
      environment: 'Production',
      is_production: true,
    });
    const renamed = await server.client
      .modifyEnvironment()
      .withData([{ op: 'rename_environment', value: 'Live' }])
      .toPromise();
    expect(renamed.rawData).toMatchObject({ id: server.projectId, environment: 'Live', is_production: true });
  });

  it('refuses other operations and empty names, changing nothing', async () => {
    const before = await server.fetch('').then((r) => r.json());
    for (const body of [[{ op: 'rename', value: 'x' }], [{ op: 'rename_environment', value: '' }], {}, []]) {
      const res = await server.fetch('', { method: 'PATCH', body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error_code: number }).error_code).toBe(5);
    }
    expect(await server.fetch('').then((r) => r.json())).toEqual(before);
  });
});
