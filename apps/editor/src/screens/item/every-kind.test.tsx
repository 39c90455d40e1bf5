// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { VariantJson } from '../../elements/model.ts';
import { renderWithApp } from '../../test-support/render.tsx';
import { managementJson, routeFetchTo, startDemoStack, type RealStack } from '../../test-support/real-management.ts';
import { ItemScreen } from './item-screen.tsx';

/*
 * A content type with every element kind, made through the real Management API of `lectern start`
 * (demo project), and an item holding a value in each (an uploaded image with a rendition-free
 * reference, linked items and subpages, a taxonomy term, a custom slug, a custom element's value):
 * the editor opens every element, shows no error, and a form changed and changed back saves
 * exactly what the API returned.
 */
let stack: RealStack;
// A 1×1 PNG.
const png = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

beforeAll(async () => {
  stack = await startDemoStack();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the item editor on a type with every element kind (real Management API)', () => {
  it('opens every element and saves an unchanged form back unchanged', async () => {
    const file = await managementJson<{ id: string }>(stack, '/files/pixel.png', {
      method: 'POST',
      raw: png,
      contentType: 'image/png',
    });
    const asset = await managementJson<{ id: string }>(stack, '/assets', {
      method: 'POST',
      body: { file_reference: { id: file.id, type: 'internal' }, title: 'Pixel' },
    });
    const type = await managementJson<{ id: string; elements: { type: string }[] }>(stack, '/types', {
      method: 'POST',
      body: {
        name: 'Everything',
        codename: 'everything',
        elements: [
          {
            name: 'Title',
            codename: 'title',
            type: 'text',
            maximum_text_length: { value: 80, applies_to: 'characters' },
          },
          { name: 'Body', codename: 'body', type: 'rich_text' },
          { name: 'Count', codename: 'count', type: 'number' },
          { name: 'When', codename: 'when', type: 'date_time' },
          {
            name: 'Colour',
            codename: 'colour',
            type: 'multiple_choice',
            mode: 'single',
            options: [
              { name: 'Red', codename: 'red' },
              { name: 'Blue', codename: 'blue' },
            ],
          },
          { name: 'Images', codename: 'images', type: 'asset' },
          { name: 'Related', codename: 'related', type: 'modular_content' },
          { name: 'Children', codename: 'children', type: 'subpages' },
          { type: 'taxonomy', codename: 'topics', taxonomy_group: { codename: 'topics' } },
          { name: 'Slug', codename: 'slug', type: 'url_slug', depends_on: { element: { codename: 'title' } } },
          {
            name: 'Widget',
            codename: 'widget',
            type: 'custom',
            source_url: 'https://widgets.example/colour',
            json_parameters: '{"palette":"warm"}',
          },
          { type: 'guidelines', codename: 'note', guidelines: '<p>Write <strong>plainly</strong>.</p>' },
        ],
      },
    });
    const { items } = await managementJson<{ items: { id: string; codename: string }[] }>(stack, '/items');
    const other = items[0]?.id ?? '';
    const item = await managementJson<{ id: string }>(stack, '/items', {
      method: 'POST',
      body: { name: 'All kinds', type: { id: type.id } },
    });
    const el = (codename: string, value: unknown, extra: Record<string, unknown> = {}) => ({
      element: { codename },
      value,
      ...extra,
    });
    await managementJson(stack, `/items/${item.id}/variants/codename/default`, {
      method: 'PUT',
      body: {
        elements: [
          el('title', 'Every kind'),
          el('body', '<h2>Heading</h2><p>Text with <strong>bold</strong>.</p><ul><li>One</li></ul>'),
          el('count', 3.5),
          el('when', '2026-05-01T10:00:00Z', { display_timezone: 'Europe/Prague' }),
          el('colour', [{ codename: 'blue' }]),
          el('images', [{ id: asset.id }]),
          el('related', [{ id: other }]),
          el('children', [{ id: other }]),
          el('topics', [{ codename: 'design' }]),
          el('slug', 'my-own-slug', { mode: 'custom' }),
          el('widget', '{"hex":"#00f"}', { searchable_value: 'blue' }),
        ],
      },
    });
    const loaded = await managementJson<VariantJson>(stack, `/items/${item.id}/variants/codename/default`);
    expect(new Set(type.elements.map((e) => e.type)).size).toBe(12);

    const writes = routeFetchTo(stack, ['manage_content']);
    const { container } = renderWithApp(
      <Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />,
      `/p/${stack.projectId}/default/items/${item.id}`,
    );
    await screen.findByRole('button', { name: 'Save' }, { timeout: 10_000 });
    for (const entry of loaded.elements)
      expect(container.querySelector(`[id="item-el-${entry.element.id}"]`)).not.toBeNull();
    expect(await screen.findByText('Pixel')).toBeTruthy();
    expect(screen.getByText('Write plainly.')).toBeTruthy();
    expect(screen.getByLabelText('Slug')).toHaveProperty('value', 'my-own-slug');
    expect(container.querySelectorAll('.element-field.has-error')).toHaveLength(0);

    const title = screen.getByLabelText('Title');
    fireEvent.change(title, { target: { value: 'Every kind, edited' } });
    fireEvent.change(title, { target: { value: 'Every kind' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect([
        document.getElementById('item-save-status')?.textContent,
        document.querySelector('.error-summary')?.textContent,
      ]).toEqual(['Saved', undefined]),
    );
    expect(writes.find((w) => w.method === 'PUT')?.body).toEqual({ elements: loaded.elements });
    const after = await managementJson<VariantJson>(stack, `/items/${item.id}/variants/codename/default`);
    expect(after.elements).toEqual(loaded.elements);
  }, 120_000);
});
