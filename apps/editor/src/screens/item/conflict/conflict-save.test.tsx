// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { ElementValue } from '../../../elements/model.ts';
import { renderWithApp } from '../../../test-support/render.tsx';
import { ItemScreen } from '../item-screen.tsx';

/*
 * The save hook against a stand-in server that checks `If-Match` as Lectern does: the editor sends
 * the ETag of the version it opened; a refused save shows the conflict, and the merge is saved over
 * the other version with that version's ETag. A version that moved without an element changing
 * (a workflow move) is saved over without asking.
 */

const zero = '00000000-0000-0000-0000-000000000000';
const type = {
  id: 'tn',
  codename: 'note',
  name: 'Note',
  content_groups: [],
  elements: [
    { id: 'a', codename: 'headline', type: 'text', name: 'Headline' },
    { id: 'b', codename: 'summary', type: 'text', name: 'Summary' },
  ],
};
const session = {
  user: { id: 'me', email: 'me@example.com' },
  csrf_token: 't',
  projects: [{ id: 'p', name: 'P', roles: [], permissions: ['manage_content'] }],
};

/** The stored variant: its elements, a version counter as its ETag, the PUTs it received. */
function standInServer() {
  const state = {
    elements: [
      { element: { id: 'a' }, value: 'Old headline' },
      { element: { id: 'b' }, value: 'Old summary' },
    ] as ElementValue[],
    version: 1,
    step: 's1',
    puts: [] as { ifMatch: string | null; elements: ElementValue[]; status: number }[],
  };
  const etag = () => `"v${state.version}"`;
  const variant = () => ({
    item: { id: 'i1' },
    language: { id: zero },
    elements: state.elements,
    last_modified: `2026-01-01T00:00:0${state.version}Z`,
    workflow_step: { id: state.step },
  });
  const json = (data: unknown, status = 200, headers: Record<string, string> = {}) =>
    Promise.resolve(
      new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json', ...headers } }),
    );
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url.endsWith('/app/api/session')) return json(session);
    const path = url.replace(/^.*\/app\/api\/v2\/projects\/[^/]+/, '');
    if (path === '/types/tn') return json(type);
    if (path === '/items/i1') return json({ id: 'i1', name: 'Note one', codename: 'note_one', type: { id: 'tn' } });
    if (path === '/languages')
      return json({
        languages: [{ id: zero, name: 'English', codename: 'default', is_default: true, is_active: true }],
        pagination: { continuation_token: null },
      });
    if (path === '/items/i1/variants') return json([variant()]);
    if (path === `/items/i1/variants/${zero}/comments`) return json({ threads: [] });
    if (path === `/items/i1/variants/${zero}` && method === 'GET') return json(variant(), 200, { etag: etag() });
    if (path === `/items/i1/variants/${zero}` && method === 'PUT') {
      const ifMatch = new Headers(init?.headers).get('if-match');
      const body = JSON.parse(String(init?.body)) as { elements: ElementValue[] };
      const isStale = ifMatch !== null && ifMatch !== etag();
      state.puts.push({ ifMatch, elements: body.elements, status: isStale ? 412 : 200 });
      if (isStale) return json({ error_code: 412, message: 'The language variant changed.' }, 412);
      state.elements = body.elements;
      state.version++;
      return json(variant(), 200, { etag: etag() });
    }
    return json({ message: 'not here' }, 404);
  });
  return {
    state,
    /** Someone else's save (through the API): a new version. */
    theirSave(changes: Record<string, string>) {
      state.elements = state.elements.map((e) =>
        e.element.id in changes ? { ...e, value: changes[e.element.id] } : e,
      );
      state.version++;
    },
  };
}

const open = () =>
  renderWithApp(<Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />, `/p/p/default/items/i1`);
const status = () => document.getElementById('item-save-status')?.textContent;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('saving over a newer version', () => {
  it('sends the opened version, shows what the other person changed, and merges both', async () => {
    const server = standInServer();
    open();
    fireEvent.change(await screen.findByLabelText('Summary'), { target: { value: 'My summary' } });
    server.theirSave({ a: 'Their headline' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const panel = await screen.findByRole('alert');
    expect(server.state.puts[0]).toMatchObject({ ifMatch: '"v1"', status: 412 });
    expect(server.state.elements.map((e) => e.value)).toEqual(['Their headline', 'Old summary']);
    expect(within(panel).getByRole('row', { name: /Headline/ }).textContent).toContain('Their headline');
    expect(within(panel).getByRole('row', { name: /Summary/ }).textContent).toContain('My summary');
    expect(status()).toBe('Not saved');
    fireEvent.click(within(panel).getByRole('button', { name: "Keep both where they don't overlap" }));
    await waitFor(() => expect(status()).toBe('Saved'));
    expect(server.state.puts[1]).toMatchObject({ ifMatch: '"v2"', status: 200 });
    expect(server.state.elements.map((e) => e.value)).toEqual(['Their headline', 'My summary']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps their version when the person discards', async () => {
    const server = standInServer();
    open();
    fireEvent.change(await screen.findByLabelText('Headline'), { target: { value: 'Mine' } });
    server.theirSave({ a: 'Theirs' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByText(/you changed too/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Discard my changes and load theirs' }));
    await waitFor(() => expect(screen.getByLabelText('Headline')).toHaveProperty('value', 'Theirs'));
    expect(server.state.puts.filter((p) => p.status === 200)).toEqual([]);
  });

  it('saves again without asking when no element changed in between (a workflow move)', async () => {
    const server = standInServer();
    open();
    fireEvent.change(await screen.findByLabelText('Summary'), { target: { value: 'Mine' } });
    server.state.step = 's2';
    server.state.version++;
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(status()).toBe('Saved'));
    expect(server.state.puts.map((p) => [p.ifMatch, p.status])).toEqual([
      ['"v1"', 412],
      ['"v2"', 200],
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
