// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assetOf, fakeApi } from '../../test/fake-server.ts';
import { installFakeXhr } from '../../test/fake-xhr.ts';
import { renderWithQuery } from '../../test/render.tsx';
import { AssetPicker } from './asset-picker.tsx';

const photo = assetOf({ id: 'a1', file_name: 'photo.png', title: 'Harbour photo' });
const manual = assetOf({ id: 'a2', file_name: 'manual.pdf', type: 'application/pdf', folder: { id: 'f1' } });
const logo = assetOf({ id: 'a3', file_name: 'logo.svg', type: 'image/svg+xml', folder: { id: 'f1' } });

function serve() {
  return fakeApi({
    'GET /v2/projects/p1/assets': () => ({
      body: { assets: [photo, manual, logo], pagination: { continuation_token: null, next_page: null } },
    }),
    'GET /v2/projects/p1/folders': () => ({
      body: { folders: [{ id: 'f1', name: 'Brand', codename: 'brand', folders: [] }], last_modified: '' },
    }),
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AssetPicker', () => {
  it('returns the asset chosen in a single picker, with cropped thumbnails from the assets origin', async () => {
    serve();
    const onPick = vi.fn();
    renderWithQuery(<AssetPicker projectId="p1" isOpen onClose={() => {}} onPick={onPick} />);
    const tile = await screen.findByRole('button', { name: /Harbour photo/ });
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search assets' }));
    const img = tile.querySelector('img');
    expect(img?.getAttribute('src')).toBe('https://assets.test/p1/a1/photo.png?w=240&h=160&fit=crop');
    fireEvent.click(tile);
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(onPick.mock.calls[0]?.[0]).toEqual([photo]);
  });

  it('collects several assets in a multiple picker and returns them with Insert', async () => {
    serve();
    const onPick = vi.fn();
    renderWithQuery(<AssetPicker projectId="p1" isOpen onClose={() => {}} onPick={onPick} isMultiple />);
    const insert = screen.getByRole('button', { name: 'Insert' });
    expect((insert as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: /manual\.pdf/ }));
    fireEvent.click(screen.getByRole('button', { name: /Harbour photo/ }));
    expect(screen.getByRole('button', { name: /Harbour photo/ }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('2 assets selected')).toBeTruthy();
    fireEvent.click(insert);
    expect(onPick.mock.calls[0]?.[0]).toEqual([manual, photo]);
  });

  it('lists only images when images only, and filters by search and folder', async () => {
    serve();
    renderWithQuery(<AssetPicker projectId="p1" isOpen onClose={() => {}} onPick={() => {}} isImagesOnly />);
    await screen.findByRole('button', { name: /Harbour photo/ });
    expect(screen.queryByRole('button', { name: /manual\.pdf/ })).toBeNull();
    expect(screen.getByRole('button', { name: /logo\.svg/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Brand' }));
    expect(screen.queryByRole('button', { name: /Harbour photo/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'All assets' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search assets' }), { target: { value: 'harbour' } });
    expect(screen.getByRole('button', { name: /Harbour photo/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /logo\.svg/ })).toBeNull();
  });

  it('closes on Escape and shows the API error in its words', async () => {
    fakeApi({
      'GET /v2/projects/p1/assets': () => ({
        status: 403,
        body: { message: 'The user may not read assets.', error_code: 7 },
      }),
      'GET /v2/projects/p1/folders': () => ({ body: { folders: [], last_modified: '' } }),
    });
    const onClose = vi.fn();
    renderWithQuery(<AssetPicker projectId="p1" isOpen onClose={onClose} onPick={() => {}} />);
    expect((await screen.findByRole('alert')).textContent).toBe('The user may not read assets.');
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('uploads inside the picker into the open folder, and the uploaded asset is chosen', async () => {
    const Xhr = installFakeXhr();
    const uploaded = assetOf({ id: 'a8', file_name: 'new.png', folder: { id: 'f1' } });
    let created: unknown = null;
    fakeApi({
      'GET /v2/projects/p1/assets': () => ({
        body: { assets: created ? [photo, uploaded] : [photo], pagination: { continuation_token: null } },
      }),
      'GET /v2/projects/p1/folders': () => ({
        body: { folders: [{ id: 'f1', name: 'Brand', codename: 'brand', folders: [] }], last_modified: '' },
      }),
      'POST /v2/projects/p1/assets': (r) => {
        created = r.body;
        return { status: 201, body: uploaded };
      },
    });
    const onPick = vi.fn();
    renderWithQuery(<AssetPicker projectId="p1" isOpen onClose={() => {}} onPick={onPick} isMultiple isImagesOnly />);
    fireEvent.click(await screen.findByRole('button', { name: 'Brand' }));
    const input = screen.getByTestId('upload-input');
    expect(input.getAttribute('accept')).toBe('image/*');
    fireEvent.change(input, { target: { files: [new File(['x'], 'new.png', { type: 'image/png' })] } });
    act(() => Xhr.all[0]?.respond(200, { id: 'file-8', type: 'internal' }));
    expect(await screen.findByText('1 asset selected')).toBeTruthy();
    expect(created).toEqual({ file_reference: { id: 'file-8', type: 'internal' }, folder: { id: 'f1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Insert' }));
    expect(onPick.mock.calls[0]?.[0]).toEqual([uploaded]);
  });
});
