// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderElement } from '../test-support/render.tsx';
import { AssetElement } from './asset.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);
const asset = (id: string, title: string, extra: Record<string, unknown> = {}) => ({
  id,
  file_name: `${id}.png`,
  title,
  size: 1000,
  type: 'image/png',
  url: `https://assets.example/${id}.png`,
  image_width: 800,
  image_height: 600,
  ...extra,
});
beforeEach(() => {
  const a1 = asset('a1', 'Logo');
  const a2 = asset('a2', 'Hero', { size: 5_000_000 });
  const a3 = asset('a3', 'Manual', {
    type: 'application/pdf',
    image_width: null,
    image_height: null,
    file_name: 'manual.pdf',
  });
  mockApi({
    '/assets/a1': a1,
    '/assets/a2': a2,
    '/assets/a3': a3,
    '/assets': { assets: [a1, a2, a3], pagination: { continuation_token: null } },
  });
});
const el: TypeElement = {
  id: 'e',
  codename: 'photos',
  type: 'asset',
  name: 'Photos',
  asset_count_limit: { value: 3, condition: 'at_most' },
  maximum_file_size: 1_000_000,
};

describe('AssetElement', () => {
  it('shows the chosen assets with thumbnails and the limits they break', async () => {
    renderElement(AssetElement, el, {
      element: { id: 'e' },
      value: [
        { id: 'a1', renditions: [] },
        { id: 'a2', renditions: [] },
      ],
    });
    await screen.findByText('Hero');
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.element-list-name')?.textContent)).toEqual(['Logo', 'Hero']);
    expect(rows[0]?.querySelector('img')?.getAttribute('src')).toBe('https://assets.example/a1.png?w=96&h=96&fit=clip');
    expect(within(rows[1] as HTMLElement).getByText('The file is larger than 1000000 bytes.')).toBeTruthy();
  });

  it('reorders and removes, keeping each entry as loaded', async () => {
    const { last } = renderElement(AssetElement, el, {
      element: { id: 'e' },
      value: [
        { id: 'a1', renditions: [{ id: 'r1' }] },
        { id: 'a2', renditions: [] },
      ],
    });
    await screen.findByText('Hero');
    fireEvent.click(screen.getByRole('button', { name: 'Move Hero up' }));
    expect(last()).toEqual({
      element: { id: 'e' },
      value: [
        { id: 'a2', renditions: [] },
        { id: 'a1', renditions: [{ id: 'r1' }] },
      ],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Logo' }));
    expect(last()).toEqual({ element: { id: 'e' }, value: [{ id: 'a2', renditions: [] }] });
  });

  it('adds assets through the asset picker, only images when the element allows only images', async () => {
    const { last } = renderElement(
      AssetElement,
      { ...el, allowed_file_types: 'adjustable' },
      { element: { id: 'e' }, value: [{ id: 'a1' }] },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Insert assets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert images' });
    await within(dialog).findByRole('button', { name: /Hero/ });
    expect(within(dialog).queryByRole('button', { name: /Manual|manual\.pdf/ })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: /Hero/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Insert' }));
    expect(last()).toEqual({ element: { id: 'e' }, value: [{ id: 'a1' }, { id: 'a2' }] });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers no more assets once the count limit is reached', () => {
    renderElement(
      AssetElement,
      { ...el, asset_count_limit: { value: 1, condition: 'at_most' } },
      { element: { id: 'e' }, value: [{ id: 'a1' }] },
    );
    expect(screen.getByRole('button', { name: 'Insert assets' })).toHaveProperty('disabled', true);
  });
});
