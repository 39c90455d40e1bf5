// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderElement } from '../test-support/render.tsx';
import { SubpagesElement } from './subpages.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);
beforeEach(() => {
  mockApi({
    '/types': {
      types: [{ id: 'tp', codename: 'page', name: 'Page', content_groups: [], elements: [] }],
      pagination: { continuation_token: null },
    },
    '/items/p1': { id: 'p1', name: 'About', codename: 'about', type: { id: 'tp' } },
    '/items/p2': { id: 'p2', name: 'Contact', codename: 'contact', type: { id: 'tp' } },
  });
});
const el: TypeElement = {
  id: 's',
  codename: 'subpages',
  type: 'subpages',
  name: 'Subpages',
  allowed_content_types: [],
};

describe('SubpagesElement', () => {
  it('lists the subpages and edits them like linked items', async () => {
    const { last } = renderElement(SubpagesElement, el, { element: { id: 's' }, value: [{ id: 'p1' }, { id: 'p2' }] });
    await screen.findByText('Contact');
    fireEvent.click(screen.getByRole('button', { name: 'Move Contact up' }));
    expect(last()).toEqual({ element: { id: 's' }, value: [{ id: 'p2' }, { id: 'p1' }] });
    expect(screen.getByRole('button', { name: 'Insert existing items' })).toBeTruthy();
  });

  it('shows a missing subpage as missing rather than failing', async () => {
    renderElement(SubpagesElement, el, { element: { id: 's' }, value: [{ id: 'gone' }] });
    expect(await screen.findByText('Missing item')).toBeTruthy();
  });
});
