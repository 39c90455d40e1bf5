// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from '../../api/client.ts';
import { useLiveProject } from '../../api/live.ts';
import { assetOf, fakeApi, sessionRoute, type Handler } from '../../../test/fake-server.ts';
import { installFakeXhr } from '../../../test/fake-xhr.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { AssetLibrary } from './assets-screen.tsx';

const zero = '00000000-0000-0000-0000-000000000000';
const photo = assetOf({ id: 'a1', file_name: 'photo.png', title: 'Harbour photo' });
const languages = {
  languages: [
    { id: zero, name: 'English', codename: 'en', is_active: true, is_default: true },
    { id: 'lang-de', name: 'German', codename: 'de', is_active: true, is_default: false },
  ],
  pagination: { continuation_token: null, next_page: null },
};

/** The server's assets: a PUT or DELETE handler of a test changes them, as the server would. */
let stored: unknown[] = [];

function serve(extra: Record<string, Handler> = {}, permissions = ['manage_content']) {
  stored = [photo];
  return fakeApi({
    ...sessionRoute(permissions),
    'GET /v2/projects/p1/assets': () => ({
      body: { assets: stored, pagination: { continuation_token: null, next_page: null } },
    }),
    'GET /v2/projects/p1/folders': () => ({
      body: { folders: [{ id: 'f1', name: 'Brand', codename: 'brand', folders: [] }], last_modified: '' },
    }),
    'GET /v2/projects/p1/languages': () => ({ body: languages }),
    ...extra,
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setCsrfToken(null);
});

describe('Asset library', () => {
  it('uploads a file with its progress shown and the session CSRF token, then creates the asset in the current folder', async () => {
    const Xhr = installFakeXhr();
    const created = assetOf({ id: 'a9', file_name: 'new.png', folder: { id: 'f1' } });
    const { calls } = serve({ 'POST /v2/projects/p1/assets': () => ({ status: 201, body: created }) });
    renderWithQuery(<AssetLibrary projectId="p1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Brand' }));
    const file = new File(['x'.repeat(2000)], 'new.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file] } });
    const xhr = Xhr.all[0];
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/app/api/v2/projects/p1/files/new.png');
    expect(xhr?.headers['content-type']).toBe('image/png');
    expect(xhr?.headers['x-csrf-token']).toBe('csrf-session');
    expect(xhr?.body).toBe(file);
    act(() => xhr?.progress(500, 2000));
    const bar = screen.getByRole('progressbar', { name: 'Upload of new.png' });
    expect(bar.getAttribute('value')).toBe('25');
    expect(screen.getByText('25 %')).toBeTruthy();
    act(() => xhr?.respond(200, { id: 'file-9', type: 'internal' }));
    await screen.findByText('Uploaded');
    const post = calls.find((c) => c.method === 'POST' && c.path === '/v2/projects/p1/assets');
    expect(post?.body).toEqual({ file_reference: { id: 'file-9', type: 'internal' }, folder: { id: 'f1' } });
    expect(post?.headers['x-csrf-token']).toBe('csrf-session');
  });

  it('shows an upload refused in the API words', async () => {
    const Xhr = installFakeXhr();
    serve();
    renderWithQuery(<AssetLibrary projectId="p1" />);
    await screen.findByRole('button', { name: /Harbour photo/ });
    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [new File(['x'], 'big.bin')] } });
    act(() => Xhr.all[0]?.respond(413, { message: 'The file is larger than 100 MiB.', error_code: 208 }));
    expect((await screen.findByRole('alert')).textContent).toBe('The file is larger than 100 MiB.');
  });

  it('saves the title and a description per language with PUT /assets/{id}', async () => {
    let put: unknown = null;
    serve({
      'PUT /v2/projects/p1/assets/a1': (r) => {
        put = r.body;
        return { body: { ...photo, title: 'Quay' } };
      },
    });
    renderWithQuery(<AssetLibrary projectId="p1" />);
    fireEvent.click(await screen.findByRole('button', { name: /Harbour photo/ }));
    const detail = screen.getByRole('region', { name: 'Harbour photo' });
    expect(document.activeElement).toBe(within(detail).getByRole('heading', { name: 'Harbour photo' }));
    fireEvent.change(within(detail).getByLabelText('Title'), { target: { value: 'Quay' } });
    fireEvent.change(await within(detail).findByLabelText('German'), { target: { value: 'Der Hafen' } });
    fireEvent.click(within(detail).getByRole('button', { name: 'Save' }));
    await within(detail).findByText('Saved');
    expect(put).toEqual({
      file_reference: { id: 'file-a1', type: 'internal' },
      title: 'Quay',
      descriptions: [
        { language: { id: zero }, description: null },
        { language: { id: 'lang-de' }, description: 'Der Hafen' },
      ],
      folder: { id: zero },
    });
  });

  it('replaces the file: uploads it, then PUTs the new file_reference', async () => {
    const Xhr = installFakeXhr();
    let put: { file_reference?: unknown } | null = null;
    serve({
      'PUT /v2/projects/p1/assets/a1': (r) => {
        put = r.body as { file_reference?: unknown };
        stored = [{ ...photo, file_name: 'photo-2.png', last_modified: '2026-11-27T11:00:00.000Z' }];
        return { body: stored[0] };
      },
    });
    renderWithQuery(<AssetLibrary projectId="p1" />);
    fireEvent.click(await screen.findByRole('button', { name: /Harbour photo/ }));
    fireEvent.change(screen.getByTestId('replace-input'), {
      target: { files: [new File(['y'], 'photo-2.png', { type: 'image/png' })] },
    });
    expect(Xhr.all[0]?.url).toBe('/app/api/v2/projects/p1/files/photo-2.png');
    act(() => Xhr.all[0]?.progress(1, 2));
    expect(screen.getByRole('progressbar', { name: 'Replacing photo.png' }).getAttribute('value')).toBe('50');
    act(() => Xhr.all[0]?.respond(200, { id: 'file-new', type: 'internal' }));
    await waitFor(() => expect(put?.file_reference).toEqual({ id: 'file-new', type: 'internal' }));
    expect(await screen.findByText(/photo-2\.png · image\/png/)).toBeTruthy();
  });

  it('refuses to delete an asset a variant uses, naming the item, and sends no DELETE', async () => {
    const { calls } = serve({
      'GET /v2/projects/p1/types': () => ({
        body: {
          types: [
            { id: 't-plain', name: 'Plain', elements: [{ type: 'text' }] },
            { id: 't-article', name: 'Article', elements: [{ type: 'rich_text' }] },
          ],
          pagination: { continuation_token: null, next_page: null },
        },
      }),
      'GET /v2/projects/p1/types/t-article/variants': () => ({
        body: {
          variants: [
            {
              item: { id: 'i1' },
              language: { id: zero },
              elements: [
                {
                  element: { id: 'e1' },
                  value: '<figure data-asset-id="a1"><img src="#" data-asset-id="a1"></figure>',
                },
              ],
            },
          ],
          pagination: { continuation_token: null, next_page: null },
        },
      }),
      'GET /v2/projects/p1/items/i1': () => ({ body: { id: 'i1', name: 'On the harbour' } }),
    });
    renderWithQuery(<AssetLibrary projectId="p1" />);
    fireEvent.click(await screen.findByRole('button', { name: /Harbour photo/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByText(/cannot be deleted/);
    expect(alert).toBeTruthy();
    expect(screen.getByText('On the harbour (Article)')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(calls.some((c) => c.path === '/v2/projects/p1/types/t-plain/variants')).toBe(false);
  });

  it('deletes an unused asset after the confirmation', async () => {
    const { calls } = serve({
      'GET /v2/projects/p1/types': () => ({
        body: {
          types: [{ id: 't-article', name: 'Article', elements: [{ type: 'asset' }] }],
          pagination: { continuation_token: null, next_page: null },
        },
      }),
      'GET /v2/projects/p1/types/t-article/variants': () => ({
        body: {
          variants: [
            {
              item: { id: 'i1' },
              language: { id: zero },
              elements: [{ element: { id: 'e1' }, value: [{ id: 'other' }] }],
            },
          ],
          pagination: { continuation_token: null, next_page: null },
        },
      }),
      'DELETE /v2/projects/p1/assets/a1': () => {
        stored = [];
        return { status: 204 };
      },
    });
    renderWithQuery(<AssetLibrary projectId="p1" />);
    fireEvent.click(await screen.findByRole('button', { name: /Harbour photo/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete asset' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Harbour photo/ })).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/v2/projects/p1/assets/a1']);
  });

  it('shows an asset added elsewhere when the change stream says so, without a reload', async () => {
    const sources: { url: string; listeners: Map<string, (e: MessageEvent) => void> }[] = [];
    vi.stubGlobal(
      'EventSource',
      class {
        readonly listeners = new Map<string, (e: MessageEvent) => void>();
        readonly url: string;
        constructor(url: string) {
          this.url = url;
          sources.push(this);
        }
        addEventListener(name: string, f: (e: MessageEvent) => void) {
          this.listeners.set(name, f);
        }
        close() {}
      },
    );
    serve();
    function Live() {
      useLiveProject('p1');
      return <AssetLibrary projectId="p1" />;
    }
    renderWithQuery(<Live />);
    await screen.findByRole('button', { name: /Harbour photo/ });
    stored = [photo, assetOf({ id: 'a7', file_name: 'from-api.png' })];
    expect(sources[0]?.url).toBe('/app/api/projects/p1/changes');
    act(() =>
      sources[0]?.listeners.get('change')?.(
        new MessageEvent('change', { data: JSON.stringify({ object_kind: 'asset', operation: 'create', id: 'a7' }) }),
      ),
    );
    expect(await screen.findByRole('button', { name: /from-api\.png/ })).toBeTruthy();
  });

  it('shows a person without manage_content the assets read-only: no upload, folder actions, Save, Replace or Delete', async () => {
    serve({}, ['read']);
    renderWithQuery(<AssetLibrary projectId="p1" />);
    fireEvent.click(await screen.findByRole('button', { name: /Harbour photo/ }));
    const detail = screen.getByRole('region', { name: 'Harbour photo' });
    expect(within(detail).getByText('Your role can view assets but not change them.')).toBeTruthy();
    expect((within(detail).getByLabelText('Title') as HTMLInputElement).readOnly).toBe(true);
    expect(within(detail).getByRole('link', { name: 'Download' })).toBeTruthy();
    for (const name of ['Upload assets', 'New folder', 'Save', 'Replace', 'Delete'])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('shows the first page of assets while the next ones load, following x-continuation', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const second = assetOf({ id: 'a2', file_name: 'second-page.png' });
    const { calls } = fakeApi({
      ...sessionRoute(['manage_content']),
      'GET /v2/projects/p1/assets': async (r) => {
        if (r.headers['x-continuation'] !== 'page-2')
          return { body: { assets: [photo], pagination: { continuation_token: 'page-2', next_page: 'x' } } };
        await gate;
        return { body: { assets: [second], pagination: { continuation_token: null, next_page: null } } };
      },
      'GET /v2/projects/p1/folders': () => ({ body: { folders: [], last_modified: '' } }),
    });
    renderWithQuery(<AssetLibrary projectId="p1" />);
    await screen.findByRole('button', { name: /Harbour photo/ });
    expect(screen.getByText('Loading assets…')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /second-page\.png/ })).toBeNull();
    release();
    await screen.findByRole('button', { name: /second-page\.png/ });
    expect(await screen.findByText('2 of 2 assets')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/v2/projects/p1/assets').map((c) => c.headers['x-continuation'])).toEqual([
      undefined,
      'page-2',
    ]);
  });
});
