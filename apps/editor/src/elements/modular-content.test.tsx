// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderElement } from '../test-support/render.tsx';
import { ModularContentElement } from './modular-content.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);
const types = [
  { id: 'ta', codename: 'author', name: 'Author', content_groups: [], elements: [] },
  { id: 'tb', codename: 'article', name: 'Article', content_groups: [], elements: [] },
];
const items = {
  i1: { id: 'i1', name: 'Ada', codename: 'ada', type: { id: 'ta' } },
  i2: { id: 'i2', name: 'Grace', codename: 'grace', type: { id: 'ta' } },
  i3: { id: 'i3', name: 'Alan', codename: 'alan', type: { id: 'ta' } },
};
let calls: ReturnType<typeof mockApi>;
beforeEach(() => {
  calls = mockApi({
    '/types': { types, pagination: { continuation_token: null } },
    '/items/i1': items.i1,
    '/items/i2': items.i2,
    '/items/i3': items.i3,
    'POST /items-with-variant/filter': (body) => {
      const phrase = ((body as { filters: { search_phrase?: string } }).filters.search_phrase ?? '').toLowerCase();
      const found = Object.values(items).filter((i) => i.name.toLowerCase().includes(phrase));
      return {
        variants: found.map((i) => ({ item: { id: i.id }, language: { id: 'l' } })),
        pagination: { continuation_token: null },
      };
    },
    'POST /items-with-variant/bulk-get': (body) => ({
      data: (body as { variants: { item: { id: string } }[] }).variants.map((v) => ({
        item: items[v.item.id as keyof typeof items],
      })),
      pagination: { continuation_token: null },
    }),
    'POST /items': (body) => ({ id: 'new1', name: (body as { name: string }).name, codename: 'n', type: { id: 'ta' } }),
  });
});
const el: TypeElement = {
  id: 'e',
  codename: 'authors',
  type: 'modular_content',
  name: 'Authors',
  allowed_content_types: [{ id: 'ta' }],
  item_count_limit: { value: 3, condition: 'at_most' },
};

describe('ModularContentElement (linked items)', () => {
  it('lists the linked items with their types, reorders and removes', async () => {
    const { last } = renderElement(ModularContentElement, el, {
      element: { id: 'e' },
      value: [{ id: 'i1' }, { id: 'i2' }],
    });
    await screen.findByText('Grace');
    expect((await screen.findAllByText('Author')).length).toBe(2);
    expect(screen.getByRole('link', { name: 'Ada' }).getAttribute('href')).toBe('/p/p/default/items/i1');
    fireEvent.click(screen.getByRole('button', { name: 'Move Ada down' }));
    expect(last()).toEqual({ element: { id: 'e' }, value: [{ id: 'i2' }, { id: 'i1' }] });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Grace' }));
    expect(last()).toEqual({ element: { id: 'e' }, value: [{ id: 'i1' }] });
  });

  it('picks items by search, filtered by the allowed types, leaving out those already linked', async () => {
    const { last } = renderElement(ModularContentElement, el, { element: { id: 'e' }, value: [{ id: 'i1' }] });
    fireEvent.click(screen.getByRole('button', { name: 'Insert existing items' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert existing items' });
    await within(dialog).findByText('Grace');
    expect(within(dialog).queryByText('Ada')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Search by name'), { target: { value: 'ala' } });
    await waitFor(() => expect(within(dialog).queryByText('Grace')).toBeNull());
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Insert Alan' }));
    expect(last()).toEqual({ element: { id: 'e' }, value: [{ id: 'i1' }, { id: 'i3' }] });
    const filter = calls.filter((c) => c.path === '/items-with-variant/filter').pop();
    expect(filter?.body).toMatchObject({ filters: { search_phrase: 'ala', content_types: [{ id: 'ta' }] } });
  });

  it('creates a new item of an allowed type and links it', async () => {
    const { last } = renderElement(ModularContentElement, el, { element: { id: 'e' }, value: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Insert existing items' }));
    const dialog = await screen.findByRole('dialog');
    const typeSelect = within(dialog).getByLabelText('Content type of the new item');
    await within(typeSelect).findByRole('option', { name: 'Author' });
    expect(within(typeSelect).queryByRole('option', { name: 'Article' })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Barbara' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create new' }));
    await waitFor(() => expect(last()).toEqual({ element: { id: 'e' }, value: [{ id: 'new1' }] }));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/items')?.body).toEqual({
      name: 'Barbara',
      type: { id: 'ta' },
    });
  });

  it('offers no more items once the count limit is reached', () => {
    renderElement(
      ModularContentElement,
      { ...el, item_count_limit: { value: 1, condition: 'exactly' } },
      { element: { id: 'e' }, value: [{ id: 'i1' }] },
    );
    expect(screen.getByRole('button', { name: 'Insert existing items' })).toHaveProperty('disabled', true);
  });
});
