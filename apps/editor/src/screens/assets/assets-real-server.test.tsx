// @vitest-environment happy-dom
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, makePng, startRealMapi, type RealMapi } from '../../../test/real-mapi.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import type { AssetJson } from '../../api/assets.ts';
import { AssetLibrary } from './assets-screen.tsx';

/*
 * The asset library against the real Management API routes (in-process, PGlite): what the screen
 * sends is what the server stores, read back through the MAPI.
 */
// A real server on a shared machine: wait for it longer than the library's 1 s default.
configure({ asyncUtilTimeout: 10_000 });

let mapi: RealMapi;
let czechId = '';

beforeAll(async () => {
  mapi = await startRealMapi();
  const language = await mapi.call<{ id: string }>('POST', '/languages', {
    name: 'Czech',
    codename: 'cs-CZ',
    is_active: true,
  });
  expect(language.status).toBe(201);
  czechId = language.json.id;
}, 60_000);

afterAll(async () => {
  cleanup();
  await mapi.close();
});

const pngFile = (name: string, size: number) =>
  new File([new Uint8Array(makePng(size, size))], name, { type: 'image/png' });

describe('Asset library on the real Management API', () => {
  it('creates a folder, uploads into it, edits title and descriptions, replaces the file, refuses to delete while used, then deletes', async () => {
    renderWithQuery(<AssetLibrary projectId={mapi.projectId} />);
    await screen.findByText('No assets match.');

    fireEvent.click(screen.getByRole('button', { name: 'New folder' }));
    fireEvent.change(screen.getByLabelText('New folder'), { target: { value: 'Harbour' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Harbour' }).getAttribute('aria-current')).toBe('true'),
    );

    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [pngFile('quay.png', 40)] } });
    await screen.findByText('Uploaded', {}, { timeout: 10_000 });
    const tile = await screen.findByRole('button', { name: /quay\.png/ });
    const listed = await mapi.call<{ assets: AssetJson[] }>('GET', '/assets');
    const folders = await mapi.call<{ folders: { id: string; name: string }[] }>('GET', '/folders');
    const asset = listed.json.assets[0] as AssetJson;
    expect(listed.json.assets).toHaveLength(1);
    expect(asset.folder).toEqual({ id: folders.json.folders[0]?.id });
    expect(asset.image_width).toBe(40);

    // The thumbnail is the assets origin's transformation of the image.
    const src = tile.querySelector('img')?.getAttribute('src') ?? '';
    expect(src).toBe(`${asset.url}?w=240&h=160&fit=crop`);
    const thumb = await httpCall(src);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');

    fireEvent.click(tile);
    const detail = screen.getByRole('region', { name: 'quay.png' });
    fireEvent.change(within(detail).getByLabelText('Title'), { target: { value: 'The quay' } });
    fireEvent.change(await within(detail).findByLabelText('Czech'), { target: { value: 'Nábřeží' } });
    fireEvent.click(within(detail).getByRole('button', { name: 'Save' }));
    await within(detail).findByText('Saved');
    const saved = (await mapi.call<AssetJson>('GET', `/assets/${asset.id}`)).json;
    expect(saved.title).toBe('The quay');
    expect(saved.descriptions.find((d) => d.language.id === czechId)?.description).toBe('Nábřeží');
    expect(saved.folder).toEqual(asset.folder);

    fireEvent.change(screen.getByTestId('replace-input'), { target: { files: [pngFile('quay-2.png', 30)] } });
    await waitFor(async () => {
      const now = (await mapi.call<AssetJson>('GET', `/assets/${asset.id}`)).json;
      expect(now.file_name).toBe('quay-2.png');
      expect(now.image_width).toBe(30);
      expect(now.title).toBe('The quay');
    });

    // A variant uses the asset: "Delete" names the item and deletes nothing.
    const type = await mapi.call<{ id: string }>('POST', '/types', {
      name: 'Gallery',
      codename: 'gallery',
      elements: [{ name: 'Image', codename: 'image', type: 'asset' }],
    });
    expect(type.status).toBe(201);
    const item = await mapi.call<{ id: string }>('POST', '/items', {
      name: 'Harbour gallery',
      type: { id: type.json.id },
    });
    const variantPath = `/items/${item.json.id}/variants/codename/default`;
    const used = await mapi.call('PUT', variantPath, {
      elements: [{ element: { codename: 'image' }, value: [{ id: asset.id }] }],
    });
    expect(used.status).toBeLessThan(300);
    fireEvent.click(
      await within(screen.getByRole('region', { name: 'The quay' })).findByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Harbour gallery (Gallery)')).toBeTruthy();
    expect((await mapi.call('GET', `/assets/${asset.id}`)).status).toBe(200);

    // Unused again: deleted after the confirmation.
    await mapi.call('PUT', variantPath, { elements: [{ element: { codename: 'image' }, value: [] }] });
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete asset' }));
    await waitFor(async () => expect((await mapi.call('GET', `/assets/${asset.id}`)).status).toBe(404));
    await waitFor(() => expect(screen.queryByRole('button', { name: /The quay/ })).toBeNull());
  }, 60_000);
});
