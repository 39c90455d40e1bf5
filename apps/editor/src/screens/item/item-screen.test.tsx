// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Link, Route } from 'wouter';
import type { ElementValue } from '../../elements/model.ts';
import { mockApi, renderWithApp, type Routes } from '../../test-support/render.tsx';
import { ItemScreen } from './item-screen.tsx';

const zero = '00000000-0000-0000-0000-000000000000';
const type = {
  id: 'tart',
  codename: 'article',
  name: 'Article',
  content_groups: [
    { id: 'g1', name: 'Content', codename: 'content' },
    { id: 'g2', name: 'SEO', codename: 'seo' },
  ],
  elements: [
    {
      id: 'title',
      codename: 'title',
      type: 'text',
      name: 'Title',
      is_required: true,
      content_group: { id: 'g1' },
      maximum_text_length: { value: 10, applies_to: 'characters' },
      guidelines: '<p>Keep it <b>short</b>.</p>',
    },
    { id: 'count', codename: 'count', type: 'number', name: 'Count', content_group: { id: 'g1' } },
    { id: 'sn', codename: 'seo', type: 'snippet', snippet: { id: 'sseo' }, content_group: { id: 'g2' } },
  ],
};
const snippet = {
  id: 'sseo',
  codename: 'seo',
  name: 'SEO',
  elements: [{ id: 'meta', codename: 'seo__meta_title', type: 'text', name: 'Meta title' }],
};
const elements: ElementValue[] = [
  { element: { id: 'title' }, value: 'Hello' },
  { element: { id: 'count' }, value: 3 },
  { element: { id: 'meta' }, value: 'Meta' },
];
const variant = {
  item: { id: 'i1' },
  language: { id: zero },
  elements,
  last_modified: '2026-01-01T00:00:00Z',
  workflow_step: { id: 's' },
};
const languages = [
  { id: zero, name: 'English', codename: 'default', is_default: true, is_active: true },
  { id: 'lcs', name: 'Czech', codename: 'cs-CZ', is_default: false, is_active: true, fallback_language: { id: zero } },
];

function routes(): Routes {
  return {
    '/types/tart': type,
    '/snippets/sseo': snippet,
    '/items/i1': { id: 'i1', name: 'First article', codename: 'first_article', type: { id: 'tart' } },
    '/items/i1/variants': [variant],
    // The open language's variant with its ETag (sent back as If-Match on Save).
    [`GET /items/i1/variants/${zero}`]: variant,
    '/languages': { languages, pagination: { continuation_token: null } },
  };
}

function mockSession(permissions: string[]) {
  return {
    user: { id: 'u', email: 'e@example.com' },
    csrf_token: 't',
    projects: [{ id: 'p', name: 'P', roles: [], permissions }],
  };
}

let calls: ReturnType<typeof mockApi>;
function open(options: { routes?: Routes; permissions?: string[]; path?: string } = {}) {
  const session = mockSession(options.permissions ?? ['manage_content']);
  calls = mockApi({ ...routes(), ...options.routes });
  // The session lives under /app/api/session, not under the project: answer it beside the MAPI routes.
  const mapiFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input).endsWith('/app/api/session')
      ? Promise.resolve(new Response(JSON.stringify(session), { status: 200 }))
      : mapiFetch(input, init),
  );
  return renderWithApp(
    <>
      <Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />
      <Route path="/p/:projectId/:language/content">
        <h1>Content inventory page</h1>
      </Route>
      <Link href="/p/p/default/content">Elsewhere</Link>
    </>,
    options.path ?? '/p/p/default/items/i1',
  );
}

const saveStatus = () => document.getElementById('item-save-status')?.textContent;
const findSummary = () =>
  waitFor(() => {
    const summary = document.querySelector<HTMLElement>('.error-summary');
    if (!summary) throw new Error('No error summary');
    return summary;
  });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
const confirmMock = vi.fn((_message?: string) => false);
beforeEach(() => {
  confirmMock.mockReset().mockReturnValue(false);
  window.confirm = confirmMock;
});

describe('ItemScreen', () => {
  it('opens the item: name, type and language, groups as tabs, snippet elements under the snippet, guidelines as text', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'First article' })).toBeTruthy();
    expect(screen.getByText('Article · English')).toBeTruthy();
    expect(saveStatus()).toBe('Saved');
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Content', 'SEO']);
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByLabelText('Title')).toHaveProperty('value', 'Hello');
    expect(screen.getByText('Keep it short.')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    // Arrow keys move between tabs (WAI-ARIA tabs).
    fireEvent.keyDown(tabs[0] as HTMLElement, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'SEO' }).getAttribute('aria-selected')).toBe('true');
    const panel = screen.getByRole('tabpanel', { name: 'SEO' });
    const section = within(panel).getByRole('region', { name: 'SEO' });
    expect(within(section).getByLabelText('Meta title')).toHaveProperty('value', 'Meta');
  });

  it('saves edits through PUT /items/{id}/variants/{language} with every element by id', async () => {
    open({
      routes: {
        'PUT /items/i1/variants/00000000-0000-0000-0000-000000000000': (body) => ({
          ...variant,
          elements: (body as { elements: ElementValue[] }).elements,
        }),
        'PUT /items/i1': (body) => ({
          id: 'i1',
          name: (body as { name: string }).name,
          codename: 'first_article',
          type: { id: 'tart' },
        }),
      },
    });
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Hi there' } });
    fireEvent.change(screen.getByLabelText('Content item name'), { target: { value: 'Renamed' } });
    expect(saveStatus()).toBe('Unsaved changes');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveStatus()).toBe('Saved'));
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/items/i1')?.body).toEqual({ name: 'Renamed' });
    const put = calls.find((c) => c.method === 'PUT' && c.path.includes('/variants/'));
    expect(put?.body).toEqual({
      elements: [{ element: { id: 'title' }, value: 'Hi there' }, elements[1], elements[2]],
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Renamed');
  });

  it("stops Save on what the API would refuse and links the summary to the element, in the API's words", async () => {
    open();
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Much too long for ten' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await findSummary();
    expect(within(summary).getByText('Fix these before saving')).toBeTruthy();
    const link = within(summary).getByRole('link', { name: 'Title: The value is longer than 10 characters.' });
    fireEvent.click(link);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Title')));
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("maps the API's validation_errors to the elements they concern", async () => {
    open({
      routes: {
        'PUT /items/i1/variants/00000000-0000-0000-0000-000000000000': () =>
          new Response(
            JSON.stringify({
              request_id: 'r',
              error_code: 5,
              message: 'The provided request body is invalid.',
              validation_errors: [
                { path: 'elements[2].value', message: 'The value does not match the pattern [a-z]+.' },
                { path: 'elements', message: 'Something about the whole list.' },
              ],
            }),
            { status: 400 },
          ),
      },
    });
    fireEvent.change(await screen.findByLabelText('Count'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await findSummary();
    expect(within(summary).getByText('The provided request body is invalid.')).toBeTruthy();
    expect(
      within(summary).getByRole('link', { name: 'Meta title: The value does not match the pattern [a-z]+.' }),
    ).toBeTruthy();
    expect(within(summary).getByText('elements: Something about the whole list.')).toBeTruthy();
    // At the element, on its tab (which shows it has errors).
    expect(screen.getByRole('tab', { name: 'SEO (1 with errors)' })).toBeTruthy();
    const field = document.getElementById('item-el-meta');
    expect(field?.textContent).toContain('The value does not match the pattern [a-z]+.');
    expect(saveStatus()).toBe('Unsaved changes');
  });

  it('is read-only without manage_content: Save disabled with the reason', async () => {
    open({ permissions: ['read_content'] });
    expect(await screen.findByLabelText('Title')).toHaveProperty('readOnly', true);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    expect(document.getElementById(save.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Your role lets you read this item but not change it.',
    );
  });

  it('guards unsaved changes: a confirm before leaving by a link, and the beforeunload warning', async () => {
    const { location } = open();
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Changed' } });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(confirmMock).toHaveBeenCalledWith('You have unsaved changes. Leave this page and lose them?');
    expect(location.history?.at(-1)).toBe('/p/p/default/items/i1');
    expect(screen.getByLabelText('Title')).toHaveProperty('value', 'Changed');
    confirmMock.mockReturnValue(true);
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Content inventory page')).toBeTruthy();
  });

  it('lets a clean form go without asking', async () => {
    open();
    await screen.findByLabelText('Title');
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Content inventory page')).toBeTruthy();
    expect(confirmMock).not.toHaveBeenCalled();
  });

  it('says when the variant does not exist in the language, what it falls back to, and creates it from another', async () => {
    let created: unknown = null;
    open({
      path: '/p/p/cs-CZ/items/i1',
      routes: {
        'PUT /items/i1/variants/lcs': (body) => {
          created = body;
          return { ...variant, language: { id: 'lcs' }, elements: (body as { elements: ElementValue[] }).elements };
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'This item is not translated to Czech yet' })).toBeTruthy();
    expect(screen.getByText('Until it is, its content falls back to English.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create from English' }));
    expect(await screen.findByLabelText('Title')).toHaveProperty('value', 'Hello');
    expect(created).toEqual({ elements });
    expect(screen.getByText('Article · Czech')).toBeTruthy();
  });

  it('starts an empty variant that Save creates', async () => {
    open({
      path: '/p/p/cs-CZ/items/i1',
      routes: {
        'PUT /items/i1/variants/lcs': (body) => ({ ...variant, language: { id: 'lcs' }, ...(body as object) }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Start empty' }));
    expect(screen.getByLabelText('Title')).toHaveProperty('value', '');
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'PUT' && c.path === '/items/i1/variants/lcs')).toBe(true),
    );
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/items/i1/variants/lcs')?.body).toEqual({
      elements: [
        { element: { id: 'title' }, value: '' },
        { element: { id: 'count' }, value: null },
        { element: { id: 'meta' }, value: '' },
      ],
    });
    await act(async () => {});
  });
});
