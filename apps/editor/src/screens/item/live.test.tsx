// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { useLiveProject } from '../../api/live.ts';
import { mockApi, renderWithApp } from '../../test-support/render.tsx';
import { ItemScreen } from './item-screen.tsx';

/*
 * Changes made elsewhere reach an open item through the project's change stream (the app frame's
 * EventSource, api/live.ts): a clean form shows the new values, a dirty one keeps the person's
 * edits and says the item changed, offering to load the other version.
 */
const zero = '00000000-0000-0000-0000-000000000000';
const type = {
  id: 't',
  codename: 'note',
  name: 'Note',
  content_groups: [],
  elements: [{ id: 'title', codename: 'title', type: 'text', name: 'Title' }],
};
let stored = { value: 'First', modified: '2026-01-01T00:00:00Z' };
const variant = () => ({
  item: { id: 'i1' },
  language: { id: zero },
  elements: [{ element: { id: 'title' }, value: stored.value }],
  last_modified: stored.modified,
});

class FakeEventSource {
  static last: FakeEventSource | null = null;
  private listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    // The item screen opens a presence stream too; these tests drive the changes stream.
    if (url.endsWith('/changes')) FakeEventSource.last = this;
  }
  addEventListener(name: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close() {}
  emit(name: string, data: unknown) {
    for (const l of this.listeners.get(name) ?? []) l(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
}

function Frame() {
  useLiveProject('p');
  return <Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />;
}

function changeElsewhere(value: string) {
  stored = { value, modified: new Date(Date.parse(stored.modified) + 60_000).toISOString() };
  act(() => FakeEventSource.last?.emit('change', { seq: 1, object_kind: 'variant', operation: 'upsert', id: 'i1' }));
}

beforeEach(() => {
  stored = { value: 'First', modified: '2026-01-01T00:00:00Z' };
  vi.stubGlobal('EventSource', FakeEventSource);
  mockApi({
    '/types/t': type,
    '/items/i1': { id: 'i1', name: 'Note 1', codename: 'note_1', type: { id: 't' } },
    '/items/i1/variants': () => [variant()],
    [`/items/i1/variants/${zero}`]: () => variant(),
    '/languages': {
      languages: [{ id: zero, name: 'English', codename: 'default', is_default: true, is_active: true }],
      pagination: { continuation_token: null },
    },
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the item editor and changes made elsewhere', () => {
  it('shows the new values in a clean form without a reload', async () => {
    renderWithApp(<Frame />, '/p/p/default/items/i1');
    expect(await screen.findByLabelText('Title')).toHaveProperty('value', 'First');
    expect(FakeEventSource.last?.url).toBe('/app/api/projects/p/changes');
    changeElsewhere('Second');
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveProperty('value', 'Second'));
    expect(screen.queryByText(/Someone else changed this item/)).toBeNull();
  });

  it('keeps the edits of a dirty form, says the item changed, and loads the other version on request', async () => {
    renderWithApp(<Frame />, '/p/p/default/items/i1');
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Mine' } });
    changeElsewhere('Theirs');
    expect(await screen.findByText(/Someone else changed this item while you were editing/)).toBeTruthy();
    expect(screen.getByLabelText('Title')).toHaveProperty('value', 'Mine');
    fireEvent.click(screen.getByRole('button', { name: 'Discard my changes and load theirs' }));
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveProperty('value', 'Theirs'));
    expect(screen.queryByText(/Someone else changed this item/)).toBeNull();
  });

  it('says nothing when the change is the one the form started from', async () => {
    renderWithApp(<Frame />, '/p/p/default/items/i1');
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Mine' } });
    act(() => FakeEventSource.last?.emit('change', { seq: 2, object_kind: 'variant', operation: 'upsert', id: 'i1' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText(/Someone else changed this item/)).toBeNull();
    expect(screen.getByLabelText('Title')).toHaveProperty('value', 'Mine');
  });
});
