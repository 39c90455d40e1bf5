import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesRoot } from '@lectern/testing';
import { startTestManagement, type TestManagement } from './testing/test-server.ts';

/*
 * The route census of issue 20: each of the Management API routes of the Learn reference index
 * (management-endpoints-index.json) is sent once with a valid key and well-formed path values;
 * a route is missing when it answers "No resource exists at this path" (ROUTE_NOT_FOUND). The
 * table is printed; the test fails when a route missing is not in `notBuilt` or one listed there
 * now exists (keep the list in step).
 */

interface Endpoint {
  method: string;
  path: string;
}

/** Routes not built yet (issue 20), as `METHOD path` of the index. */
const notBuilt = new Set([]);

const someId = '6a1b3c2d-0000-4000-8000-000000000001';

function concretePath(path: string, environmentId: string): string {
  return path
    .replace('{environment_id}', environmentId)
    .replace('{file_name}', 'census.txt')
    .replace('{subscription_id}', someId)
    .replace(/\{[a-z_]+\}/g, someId);
}

let server: TestManagement;

beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

describe('route census (issue 20)', () => {
  it('sends each route of the Learn reference index once and counts the missing ones', async () => {
    const index = JSON.parse(readFileSync(join(fixturesRoot, '..', 'management-endpoints-index.json'), 'utf8')) as {
      endpoints: Endpoint[];
    };
    // Deleting the environment goes last, so it cannot hide the others.
    const endpoints = [...index.endpoints].sort(
      (a, b) =>
        Number(a.method === 'DELETE' && a.path === '/projects/{environment_id}') -
        Number(b.method === 'DELETE' && b.path === '/projects/{environment_id}'),
    );
    const origin = server.baseUrl;
    const rows: { route: string; status: number; isMissing: boolean }[] = [];
    for (const e of endpoints) {
      const isUpload = e.path.includes('/files/');
      const hasBody = e.method !== 'GET' && e.method !== 'DELETE';
      const response = await fetch(`${origin}${concretePath(e.path, server.projectId)}`, {
        method: e.method,
        headers: {
          authorization: `Bearer ${server.apiKey}`,
          ...(hasBody ? { 'content-type': isUpload ? 'text/plain' : 'application/json' } : {}),
        },
        ...(hasBody ? { body: isUpload ? 'census' : e.method === 'PATCH' ? '[]' : '{}' } : {}),
      });
      const text = await response.text();
      const isMissing = text.includes('No resource exists at this path');
      rows.push({ route: `${e.method} ${e.path}`, status: response.status, isMissing });
    }
    const missing = rows.filter((r) => r.isMissing);
    console.log(
      [
        `route census: ${rows.length} routes, ${rows.length - missing.length} exist, ${missing.length} answer "No resource exists at this path"`,
        ...rows.map((r) => `${r.isMissing ? 'MISSING' : 'exists '} ${String(r.status).padEnd(4)} ${r.route}`),
      ].join('\n'),
    );
    expect(rows).toHaveLength(106);
    expect(missing.map((r) => r.route).sort()).toEqual([...notBuilt].sort());
  });
});
