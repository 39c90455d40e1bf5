import { describe, expect, it } from 'vitest';
import { permissionFor } from './permissions.ts';

describe('the permission a Management request needs', () => {
  it('needs none to read, also for the POST routes that only read', () => {
    expect(permissionFor('GET', '/types')).toBeNull();
    expect(permissionFor('POST', '/items-with-variant/filter')).toBeNull();
    expect(permissionFor('POST', '/items-with-variant/bulk-get')).toBeNull();
    expect(permissionFor('POST', '/validate')).toBeNull();
    expect(permissionFor('POST', '/validate-async')).toBeNull();
  });

  it('maps writes to content, model or environment settings', () => {
    expect(permissionFor('POST', '/items')).toBe('manage_content');
    expect(permissionFor('PUT', '/items/codename/a/variants/codename/default/publish')).toBe('manage_content');
    expect(permissionFor('POST', '/files/a.png')).toBe('manage_content');
    expect(permissionFor('PATCH', '/folders')).toBe('manage_content');
    expect(permissionFor('PATCH', '/types/codename/article')).toBe('manage_model');
    expect(permissionFor('PUT', '/workflows/codename/x')).toBe('manage_model');
    expect(permissionFor('PATCH', '/collections')).toBe('manage_model');
    expect(permissionFor('PUT', '/web-spotlight/activate')).toBe('manage_environment');
    expect(permissionFor('POST', '/clone-environment')).toBe('manage_environment');
    expect(permissionFor('PATCH', '/')).toBe('manage_environment');
    expect(permissionFor('POST', '/users')).toBe('manage_environment');
    // A type-like prefix inside another path is content.
    expect(permissionFor('PUT', '/items/codename/types')).toBe('manage_content');
  });
});
