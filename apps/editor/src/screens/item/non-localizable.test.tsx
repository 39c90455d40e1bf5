// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { mockApi, renderWithApp } from '../../test-support/render.tsx';
import { ItemScreen } from './item-screen.tsx';

/*
 * A non-localizable element holds one value for every language (the default language's): in
 * another language the form shows it read-only and says where it is edited; the rest is edited.
 */
const zero = '00000000-0000-0000-0000-000000000000';
const type = {
  id: 't',
  codename: 'product',
  name: 'Product',
  content_groups: [],
  elements: [
    { id: 'name', codename: 'name', type: 'text', name: 'Name' },
    { id: 'sku', codename: 'sku', type: 'text', name: 'SKU', is_non_localizable: true },
  ],
};
const variant = (language: string, name: string) => ({
  item: { id: 'i1' },
  language: { id: language },
  elements: [
    { element: { id: 'name' }, value: name },
    { element: { id: 'sku' }, value: 'SKU-1' },
  ],
  last_modified: '2026-01-01T00:00:00Z',
});
let calls: ReturnType<typeof mockApi>;

beforeEach(() => {
  calls = mockApi({
    '/types/t': type,
    '/items/i1': { id: 'i1', name: 'Kettle', codename: 'kettle', type: { id: 't' } },
    '/items/i1/variants': [variant(zero, 'Kettle'), variant('lcs', 'Konvice')],
    // The open language's variant with its ETag.
    [`GET /items/i1/variants/${zero}`]: variant(zero, 'Kettle'),
    'GET /items/i1/variants/lcs': variant('lcs', 'Konvice'),
    '/languages': {
      languages: [
        { id: zero, name: 'English', codename: 'default', is_default: true, is_active: true },
        {
          id: 'lcs',
          name: 'Czech',
          codename: 'cs-CZ',
          is_default: false,
          is_active: true,
          fallback_language: { id: zero },
        },
      ],
      pagination: { continuation_token: null },
    },
    'PUT /items/i1/variants/lcs': (body) => ({ ...variant('lcs', 'x'), ...(body as object) }),
  });
  const mapiFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input).endsWith('/app/api/session')
      ? Promise.resolve(
          new Response(
            JSON.stringify({
              user: { id: 'u', email: 'e' },
              csrf_token: 't',
              projects: [{ id: 'p', name: 'P', roles: [], permissions: ['manage_content'] }],
            }),
          ),
        )
      : mapiFetch(input, init),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('non-localizable elements', () => {
  it('are read-only outside the default language, saying where they are edited', async () => {
    renderWithApp(<Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />, '/p/p/cs-CZ/items/i1');
    expect(await screen.findByLabelText('SKU')).toHaveProperty('readOnly', true);
    expect(screen.getByText('Shared by all languages: edit it in the default language.')).toBeTruthy();
    const name = screen.getByLabelText('Name');
    expect(name).toHaveProperty('readOnly', false);
    fireEvent.change(name, { target: { value: 'Rychlovarná konvice' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
  });

  it('are edited in the default language', async () => {
    renderWithApp(
      <Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />,
      '/p/p/default/items/i1',
    );
    expect(await screen.findByLabelText('SKU')).toHaveProperty('readOnly', false);
    expect(screen.queryByText('Shared by all languages: edit it in the default language.')).toBeNull();
  });
});
