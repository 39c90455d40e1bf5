import { useEffect, useMemo, useRef, useState } from 'react';
import { csrfTokenOf, request } from '../../../api/client.ts';

/*
 * Presence on the item screen (issue 31, docs/editor-api.md "Presence"): this tab says it has the
 * variant open — every 10 s, and when the focus moves to another element (at most once a second)
 * — and listens to the server-sent `presence` events of the variant. Leaving the screen (or the
 * page) removes the tab at once; a tab that vanishes expires on the server after 30 s.
 */

export interface PresencePerson {
  readonly user_id: string;
  readonly name: string;
  readonly email: string;
  readonly client_id: string;
  readonly element: string | null;
}

export interface PresenceState {
  readonly people: readonly PresencePerson[];
  readonly last_saved_by: { readonly user_id: string; readonly name: string; readonly saved_at: string } | null;
}

const beatEveryMs = 10_000;
const minGapMs = 1_000;

function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The codename of the item form's top-level element that holds `node`, or null. */
function elementOf(node: EventTarget | null): string | null {
  if (!(node instanceof Element) || !node.closest('.item-form')) return null;
  let field = node.closest<HTMLElement>('.element-field');
  for (let up = field?.parentElement?.closest<HTMLElement>('.element-field'); up;) {
    field = up;
    up = up.parentElement?.closest<HTMLElement>('.element-field');
  }
  return field?.dataset['codename'] ?? null;
}

export function usePresence(input: { projectId: string; itemId: string; languageId: string | null }) {
  const { projectId, itemId, languageId } = input;
  const clientId = useMemo(newClientId, []);
  const [state, setState] = useState<PresenceState>({ people: [], last_saved_by: null });
  const element = useRef<string | null>(null);

  useEffect(() => {
    if (!languageId) return;
    const base = `/projects/${encodeURIComponent(projectId)}/presence`;
    let lastBeat = 0;
    let trailing: ReturnType<typeof setTimeout> | null = null;
    const beat = () => {
      trailing = null;
      lastBeat = Date.now();
      void request(base, {
        method: 'POST',
        body: { item_id: itemId, language_id: languageId, client_id: clientId, element: element.current },
      }).catch(() => undefined); // a refused or lost beat is repaired by the next one
    };
    const soon = () => {
      if (trailing) return;
      trailing = setTimeout(beat, Math.max(0, lastBeat + minGapMs - Date.now()));
    };
    const onFocus = (e: FocusEvent) => {
      const next = elementOf(e.target);
      if (next === element.current) return;
      element.current = next;
      soon();
    };
    const onBlur = (e: FocusEvent) => {
      if (elementOf(e.relatedTarget) !== null || element.current === null) return;
      element.current = null;
      soon();
    };
    // keepalive: the request outlives the page when the tab is closing.
    const leave = () =>
      void fetch(`/app/api${base}/${clientId}`, {
        method: 'DELETE',
        credentials: 'same-origin',
        keepalive: true,
        headers: { 'x-csrf-token': csrfTokenOf() ?? '' },
      }).catch(() => undefined);
    beat();
    const every = setInterval(beat, beatEveryMs);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('focusout', onBlur);
    window.addEventListener('pagehide', leave);
    // Without EventSource (component tests' DOM) the tab still beats; it only hears nobody.
    const source =
      typeof EventSource === 'undefined'
        ? null
        : new EventSource(
            `/app/api${base}?item_id=${encodeURIComponent(itemId)}&language_id=${encodeURIComponent(languageId)}`,
          );
    source?.addEventListener('presence', (e) => {
      try {
        setState(JSON.parse(String((e as MessageEvent).data)) as PresenceState);
      } catch {
        // a malformed frame is skipped; the next one replaces it
      }
    });
    return () => {
      clearInterval(every);
      if (trailing) clearTimeout(trailing);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('focusout', onBlur);
      window.removeEventListener('pagehide', leave);
      source?.close();
      leave();
    };
  }, [projectId, itemId, languageId, clientId]);

  /** The other tabs, one entry per person (their most recent tab). */
  const others = useMemo(() => {
    const byUser = new Map<string, PresencePerson>();
    for (const p of state.people) if (p.client_id !== clientId) byUser.set(p.user_id, p);
    return [...byUser.values()];
  }, [state.people, clientId]);
  return { others, lastSavedBy: state.last_saved_by };
}
