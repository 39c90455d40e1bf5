/*
 * A content type or snippet being edited, in the Management API v2 wire shape (reference §4): each
 * element and content group is its wire body plus a local key (new ones have no id until saved).
 * `definitionPatch` turns the changes into the PATCH operations the API offers (reference §6.1);
 * `createBody` is the POST body of a new one. Nothing here validates: the server does.
 */

export type Body = Record<string, unknown>;

export interface Entry {
  /** Stable for the editing session: the id when saved, else a local one. */
  readonly key: string;
  readonly body: Body;
}

export type DefinitionKind = 'types' | 'snippets';

export interface Draft {
  readonly name: string;
  readonly codename: string;
  /** null for snippets. */
  readonly groups: readonly Entry[] | null;
  readonly elements: readonly Entry[];
}

/** The wire form the server answers (GET /types/{id}, /snippets/{id}). */
export interface DefinitionJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly last_modified?: string;
  readonly content_groups?: readonly Body[];
  readonly elements: readonly Body[];
}

let counter = 0;
/** A key for a new element, group or option. */
export function newKey(): string {
  counter += 1;
  return `new-${counter}`;
}

/** A codename from a name, as Kontent.ai suggests one: lower case, `_` between words. */
export function codenameOf(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return /^[0-9]/.test(base) ? `n${base}` : base;
}

export function draftOf(json: DefinitionJson, kind: DefinitionKind): Draft {
  return {
    name: json.name,
    codename: json.codename,
    groups:
      kind === 'types' ? (json.content_groups ?? []).map((g) => ({ key: String(g['id']), body: { ...g } })) : null,
    elements: json.elements.map((e) => ({ key: String(e['id']), body: structuredClone(e) })),
  };
}

export function emptyDraft(kind: DefinitionKind): Draft {
  return { name: '', codename: '', groups: kind === 'types' ? [] : null, elements: [] };
}

/** The reference an element of the draft uses for a group: its id, or the codename of a new one. */
export function groupRef(group: Entry): Body {
  return typeof group.body['id'] === 'string' ? { id: group.body['id'] } : { codename: group.body['codename'] };
}

/** An element body as sent: what the server reads (no `id` for a new one, no read-only fields). */
function sendable(body: Body): Body {
  const out: Body = {};
  for (const [k, v] of Object.entries(body)) if (k !== 'id' && v !== undefined) out[k] = v;
  return out;
}

/** POST /types or /snippets for a new definition. */
export function createBody(draft: Draft): Body {
  return {
    name: draft.name,
    ...(draft.codename ? { codename: draft.codename } : {}),
    ...(draft.groups ? { content_groups: draft.groups.map((g) => sendable(g.body)) } : {}),
    elements: draft.elements.map((e) => sendable(e.body)),
  };
}

export interface PatchOp {
  readonly op: 'addInto' | 'remove' | 'replace' | 'move';
  readonly path: string;
  readonly value?: unknown;
  readonly before?: Body;
}

/** The operations and, for each, the key of the element or group it concerns (null: the definition). */
export interface Patch {
  readonly operations: PatchOp[];
  readonly targets: (string | null)[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Moves that bring `current` (ids) into the order of `target` (the same ids): one per misplaced id. */
function reorder(current: string[], target: string[], path: string, add: (op: PatchOp, key: string) => void) {
  const list = [...current];
  target.forEach((id, i) => {
    if (list[i] === id) return;
    const anchor = list[i] as string;
    list.splice(list.indexOf(id), 1);
    list.splice(i, 0, id);
    add({ op: 'move', path: `${path}/id:${id}`, before: { id: anchor } }, id);
  });
}

/**
 * The PATCH operations from `saved` to `draft`: name and codename; groups removed, added, renamed,
 * reordered; elements removed, changed (one `replace` per changed property), reordered, then the
 * new ones added before the saved element that follows them (or at the end).
 */
export function definitionPatch(saved: Draft, draft: Draft): Patch {
  const operations: PatchOp[] = [];
  const targets: (string | null)[] = [];
  const add = (op: PatchOp, key: string | null) => {
    operations.push(op);
    targets.push(key);
  };
  if (draft.name !== saved.name) add({ op: 'replace', path: '/name', value: draft.name }, null);
  if (draft.codename !== saved.codename) add({ op: 'replace', path: '/codename', value: draft.codename }, null);
  if (saved.groups && draft.groups) {
    const kept = new Set(draft.groups.map((g) => g.key));
    for (const g of saved.groups)
      if (!kept.has(g.key)) add({ op: 'remove', path: `/content_groups/id:${g.key}` }, g.key);
    const before = new Map(saved.groups.map((g) => [g.key, g] as const));
    for (const g of draft.groups) {
      const old = before.get(g.key);
      if (!old) continue;
      for (const prop of ['name', 'codename'])
        if (!same(old.body[prop], g.body[prop]))
          add({ op: 'replace', path: `/content_groups/id:${g.key}/${prop}`, value: g.body[prop] }, g.key);
    }
    const savedIds = saved.groups.filter((g) => kept.has(g.key)).map((g) => g.key);
    reorder(
      savedIds,
      draft.groups.filter((g) => before.has(g.key)).map((g) => g.key),
      '/content_groups',
      add,
    );
    draft.groups.forEach((g, i) => {
      if (before.has(g.key)) return;
      const next = draft.groups?.slice(i + 1).find((n) => before.has(n.key));
      add(
        {
          op: 'addInto',
          path: '/content_groups',
          value: sendable(g.body),
          ...(next ? { before: { id: next.key } } : {}),
        },
        g.key,
      );
    });
  }
  const kept = new Set(draft.elements.map((e) => e.key));
  for (const e of saved.elements) if (!kept.has(e.key)) add({ op: 'remove', path: `/elements/id:${e.key}` }, e.key);
  const before = new Map(saved.elements.map((e) => [e.key, e] as const));
  for (const e of draft.elements) {
    const old = before.get(e.key);
    if (!old) continue;
    const props = new Set([...Object.keys(old.body), ...Object.keys(e.body)]);
    for (const prop of props) {
      if (prop === 'id' || prop === 'type' || prop === 'external_id' || prop === 'snippet') continue;
      if (!same(old.body[prop], e.body[prop]))
        add({ op: 'replace', path: `/elements/id:${e.key}/${prop}`, value: e.body[prop] ?? null }, e.key);
    }
  }
  const savedIds = saved.elements.filter((e) => kept.has(e.key)).map((e) => e.key);
  reorder(
    savedIds,
    draft.elements.filter((e) => before.has(e.key)).map((e) => e.key),
    '/elements',
    add,
  );
  draft.elements.forEach((e, i) => {
    if (before.has(e.key)) return;
    const next = draft.elements.slice(i + 1).find((n) => before.has(n.key));
    add(
      { op: 'addInto', path: '/elements', value: sendable(e.body), ...(next ? { before: { id: next.key } } : {}) },
      e.key,
    );
  });
  return { operations, targets };
}
