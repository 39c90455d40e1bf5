import { useState } from 'react';
import { codenameOf, groupRef, newKey, type Body, type Draft, type Entry } from './definition-draft.ts';
import { elementLabel } from './element-card.tsx';

/*
 * The editing of a draft: the changes a person makes to names, elements and content groups, with
 * the sentence a screen reader hears after a move ("Title moved to position 2 of 5").
 */

/** A new element's body as Kontent.ai starts it: the kind's required settings set. */
export function newElementBody(type: string): Body {
  switch (type) {
    case 'guidelines':
      return { type, guidelines: '' };
    case 'snippet':
      return { type, snippet: null };
    case 'multiple_choice':
      return { type, name: '', codename: '', mode: 'single', options: [] };
    case 'url_slug':
      return { type, name: '', codename: '', depends_on: null };
    case 'custom':
      return { type, name: '', codename: '', source_url: '', json_parameters: null };
    case 'taxonomy':
      return { type, name: '', codename: '', taxonomy_group: null };
    default:
      return { type, name: '', codename: '' };
  }
}

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

export function useDraft(initial: Draft) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [announcement, setAnnouncement] = useState('');
  const update = (f: (d: Draft) => Draft) => setDraft((d) => f(d));

  const setField = (field: 'name' | 'codename', value: string) =>
    update((d) => {
      const isAuto = field === 'name' && d.codename === codenameOf(d.name) && initial.codename === '';
      return { ...d, [field]: value, ...(isAuto ? { codename: codenameOf(value) } : {}) };
    });

  const changeElement = (key: string, body: Body) =>
    update((d) => ({ ...d, elements: d.elements.map((e) => (e.key === key ? { key, body } : e)) }));

  const moveElement = (key: string, to: number) =>
    update((d) => {
      const from = d.elements.findIndex((e) => e.key === key);
      if (from < 0 || to < 0 || to >= d.elements.length || from === to) return d;
      const elements = moved(d.elements, from, to);
      setAnnouncement(
        `${elementLabel(elements[to]?.body ?? {}, to)} moved to position ${to + 1} of ${elements.length}.`,
      );
      return { ...d, elements };
    });

  const removeElement = (key: string) =>
    update((d) => {
      const gone = d.elements.find((e) => e.key === key);
      if (gone) setAnnouncement(`${elementLabel(gone.body, d.elements.indexOf(gone))} removed.`);
      return { ...d, elements: d.elements.filter((e) => e.key !== key) };
    });

  const addElement = (type: string) => {
    const key = newKey();
    update((d) => {
      const group = d.groups?.[0];
      const body = { ...newElementBody(type), ...(group ? { content_group: groupRef(group) } : {}) };
      return { ...d, elements: [...d.elements, { key, body }] };
    });
    return key;
  };

  const setGroups = (f: (groups: readonly Entry[]) => Entry[]) =>
    update((d) => {
      if (!d.groups) return d;
      const groups = f(d.groups);
      const first = groups[0];
      const byKey = new Map(groups.map((g) => [g.key, g] as const));
      const same = (ref: unknown, g: Entry) =>
        JSON.stringify(ref) === JSON.stringify(groupRef(g)) || (ref as Body | undefined)?.['id'] === g.body['id'];
      // Every element sits in a group once there are groups (Kontent.ai's rule), none without; a
      // renamed new group keeps its elements (they refer to it by its codename until it is saved).
      const elements = d.elements.map((e) => {
        if (!first) {
          const { content_group: _dropped, ...rest } = e.body;
          return { ...e, body: rest };
        }
        const was = d.groups?.find((g) => same(e.body['content_group'], g));
        const now = was ? byKey.get(was.key) : undefined;
        return { ...e, body: { ...e.body, content_group: groupRef(now ?? first) } };
      });
      return { ...d, groups, elements };
    });

  const addGroup = () =>
    setGroups((groups) => [
      ...groups,
      { key: newKey(), body: { name: `Group ${groups.length + 1}`, codename: `group_${groups.length + 1}` } },
    ]);

  const changeGroup = (key: string, prop: 'name' | 'codename', value: string) =>
    setGroups((groups) =>
      groups.map((g) => {
        if (g.key !== key) return g;
        const isAuto =
          prop === 'name' &&
          typeof g.body['id'] !== 'string' &&
          g.body['codename'] === codenameOf(String(g.body['name']));
        return { key, body: { ...g.body, [prop]: value, ...(isAuto ? { codename: codenameOf(value) } : {}) } };
      }),
    );

  const moveGroup = (key: string, to: number) =>
    setGroups((groups) => {
      const from = groups.findIndex((g) => g.key === key);
      if (from < 0 || to < 0 || to >= groups.length) return [...groups];
      setAnnouncement(`Group ${String(groups[from]?.body['name'])} moved to position ${to + 1} of ${groups.length}.`);
      return moved(groups, from, to);
    });

  const removeGroup = (key: string) => setGroups((groups) => groups.filter((g) => g.key !== key));

  return {
    draft,
    reset: setDraft,
    announcement,
    setField,
    changeElement,
    moveElement,
    removeElement,
    addElement,
    addGroup,
    changeGroup,
    moveGroup,
    removeGroup,
  };
}
