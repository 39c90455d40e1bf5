import { describe, expect, it } from 'vitest';
import { interfaceOf } from './audit-scope.ts';

describe('the interface of a request, by its path', () => {
  it('names each mount of the Management app', () => {
    expect(interfaceOf('/v1/projects/p/items')).toBe('management_api_v1');
    expect(interfaceOf('/v2/projects/p/items')).toBe('management_api_v2');
    expect(interfaceOf('/app/api/v2/projects/p/items')).toBe('editor');
    expect(interfaceOf('/console/projects')).toBe('console');
    expect(interfaceOf('/admin/projects')).toBe('admin_api');
    expect(interfaceOf('/mcp')).toBe('mcp');
    expect(interfaceOf('/0f1e2d3c-0000-4000-8000-000000000000/mcp')).toBe('mcp');
    expect(interfaceOf('/v2/subscriptions/s/projects')).toBe('management_api_v2');
    expect(interfaceOf('/healthz')).toBe('system');
  });
});
