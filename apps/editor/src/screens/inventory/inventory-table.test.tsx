// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Language } from '../../api/project-model.ts';
import type { InventoryRow } from './inventory-data.ts';
import { InventoryTable, type InventoryLookups } from './inventory-table.tsx';

const me = '99999999-9999-4999-8999-999999999999';
const other = '88888888-8888-4888-8888-888888888888';
const typeId = '11111111-1111-4111-8111-111111111111';
const stepId = '22222222-2222-4222-8222-222222222222';
const german = { id: 'de', name: 'German', codename: 'de' } as unknown as Language;

const item = (id: string, name: string) => ({
  id,
  name,
  codename: name.toLowerCase(),
  type: { id: typeId },
  collection: { id: '00000000-0000-0000-0000-000000000000' },
  spaces: [],
  sitemap_locations: [],
  last_modified: '2026-01-02T03:04:05.000Z',
});

const rows: InventoryRow[] = [
  {
    item: item('a', 'Translated'),
    variant: {
      item: { id: 'a' },
      language: { id: 'en' },
      last_modified: '2026-02-03T04:05:06.000Z',
      workflow: { workflow_identifier: { id: 'w' }, step_identifier: { id: stepId } },
      due_date: { value: '2026-03-01T00:00:00.000Z' },
      contributors: [{ id: me }, { id: other }],
    },
    fallback: null,
  },
  {
    item: item('b', 'Untranslated'),
    variant: null,
    fallback: {
      language: german,
      variant: { item: { id: 'b' }, language: { id: 'de' }, last_modified: '2026-01-01T00:00:00.000Z' },
    },
  },
];

const lookups: InventoryLookups = {
  types: new Map([[typeId, { id: typeId, name: 'Article' } as never]]),
  collections: new Map([['00000000-0000-0000-0000-000000000000', { name: 'Default' } as never]]),
  steps: new Map([[stepId, 'Review']]),
  userId: me,
};

afterEach(cleanup);

function renderTable(onSort = vi.fn()) {
  const { hook } = memoryLocation({ path: '/p/x/en/content' });
  render(
    <Router hook={hook}>
      <InventoryTable
        rows={rows}
        lookups={lookups}
        sort="name"
        direction="asc"
        onSort={onSort}
        itemHref={(id) => `/p/x/en/items/${id}`}
        isBusy={false}
      />
    </Router>,
  );
  return onSort;
}

describe('the inventory table', () => {
  it('shows each item with its type, collection, step, contributors and dates', () => {
    renderTable();
    const [, first] = screen.getAllByRole('row');
    const cells = within(first as HTMLElement);
    expect(cells.getByRole('link', { name: 'Translated' }).getAttribute('href')).toBe('/p/x/en/items/a');
    expect(cells.getByText('Article')).toBeTruthy();
    expect(cells.getByText('Default')).toBeTruthy();
    expect(cells.getByText('Review')).toBeTruthy();
    expect(cells.getByText('You, User 88888888')).toBeTruthy();
    expect(first?.querySelectorAll('time')).toHaveLength(2);
  });

  it('marks an item without a variant "Not translated", naming the fallback language that has one', () => {
    renderTable();
    const [, , second] = screen.getAllByRole('row');
    expect(second?.textContent).toContain('Not translated (shows German)');
  });

  it('tells which column is sorted, and sorts by the header buttons', () => {
    const onSort = renderTable();
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: /Last modified/ }).getAttribute('aria-sort')).toBe('none');
    fireEvent.click(screen.getByRole('button', { name: /Due date/ }));
    expect(onSort).toHaveBeenCalledWith('due_date');
  });
});
