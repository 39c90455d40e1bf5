// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seriousViolations } from '../../../test/axe.ts';
import { assetOf, fakeApi, sessionRoute } from '../../../test/fake-server.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { AssetPicker } from '../../ui/asset-picker.tsx';
import { AssetLibrary } from './assets-screen.tsx';

const assets = [
  assetOf({ id: 'a1', file_name: 'photo.png', title: 'Harbour photo' }),
  assetOf({ id: 'a2', file_name: 'manual.pdf', type: 'application/pdf' }),
];

function serve() {
  fakeApi({
    ...sessionRoute(['manage_content']),
    'GET /v2/projects/p1/assets': () => ({ body: { assets, pagination: { continuation_token: null } } }),
    'GET /v2/projects/p1/folders': () => ({
      body: { folders: [{ id: 'f1', name: 'Brand', codename: 'brand', folders: [] }], last_modified: '' },
    }),
    'GET /v2/projects/p1/languages': () => ({
      body: {
        languages: [{ id: '00000000-0000-0000-0000-000000000000', name: 'English', codename: 'en', is_active: true }],
        pagination: { continuation_token: null },
      },
    }),
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('axe-core: assets', () => {
  it('the library with an open asset has no serious violation', async () => {
    serve();
    renderWithQuery(<AssetLibrary projectId="p1" />);
    fireEvent.click(await screen.findByRole('button', { name: /Harbour photo/ }));
    await screen.findByLabelText('English');
    fireEvent.click(screen.getByRole('button', { name: 'New folder' }));
    expect(await seriousViolations()).toEqual([]);
  });

  it('the picker dialog has no serious violation', async () => {
    serve();
    renderWithQuery(<AssetPicker projectId="p1" isOpen onClose={() => {}} onPick={() => {}} isMultiple />);
    await screen.findByRole('button', { name: /Harbour photo/ });
    expect(await seriousViolations()).toEqual([]);
  });
});
