// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderElement } from '../test-support/render.tsx';
import { TaxonomyElement } from './taxonomy.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);
beforeEach(() => {
  mockApi({
    '/taxonomies/g1': {
      id: 'g1',
      name: 'Topics',
      codename: 'topics',
      terms: [
        { id: 't1', name: 'Engineering', codename: 'engineering', terms: [] },
        {
          id: 't2',
          name: 'Product',
          codename: 'product',
          terms: [{ id: 't3', name: 'Pricing', codename: 'pricing', terms: [] }],
        },
      ],
    },
  });
});
const el: TypeElement = { id: 'x', codename: 'topics', type: 'taxonomy', name: 'Topics', taxonomy_group: { id: 'g1' } };

describe('TaxonomyElement', () => {
  it("shows the group's terms as a tree of checkboxes and produces term references", async () => {
    const { last } = renderElement(TaxonomyElement, el, { element: { id: 'x' }, value: [{ id: 't1' }] });
    const nested = await screen.findByLabelText('Pricing');
    expect(nested.closest('ul')?.closest('li')?.textContent).toContain('Product');
    expect(screen.getByLabelText('Engineering')).toHaveProperty('checked', true);
    fireEvent.click(nested);
    expect(last()).toEqual({ element: { id: 'x' }, value: [{ id: 't1' }, { id: 't3' }] });
    fireEvent.click(screen.getByLabelText('Engineering'));
    expect(last()).toEqual({ element: { id: 'x' }, value: [{ id: 't3' }] });
  });
});
