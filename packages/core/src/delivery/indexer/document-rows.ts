import { createHash } from 'node:crypto';
import type { IndexedVariant } from '../index-port.ts';
import type { IndexDocument } from './writer-port.ts';

/**
 * What every document engine stores of a rendered document, beside its JSON: the filterable and
 * orderable values, the members `contains`/`any`/`all` compare, and the links `dependents` and
 * `usedIn` follow. Engine-neutral: the SQL index writes them as rows, the search index as fields.
 */

/** Value kinds (the SQL index's `delivery_values.kind`, migration 0008; the search index's `k`). */
export type ValueKind = 'n' | 's' | 'a' | 'o' | 'b' | 'z';

/** One filterable, orderable value of a document: an element's value or a system property. */
export interface ValueRow {
  readonly property: string;
  readonly kind: ValueKind;
  /** The number of kind `n`. */
  readonly num: number | null;
  /** The string of kind `s`; the JSON text of kinds `a` and `o` (what ordering compares). */
  readonly txt: string | null;
}

export interface MemberRow {
  readonly property: string;
  readonly member: string;
}

export interface LinkRow {
  /** d: an item whose change re-renders the document; a: an asset it shows; u: an item it uses. */
  readonly kind: 'd' | 'a' | 'u';
  readonly target: string;
}

/**
 * System properties every document engine keeps as their own columns or fields, beside the
 * document: the same string as in the document (`system.id` is the item id).
 */
export const systemColumns = {
  'system.id': 'item_id',
  'system.name': 'name',
  'system.codename': 'codename',
  'system.language': 'language',
  'system.type': 'type',
  'system.collection': 'collection',
  'system.last_modified': 'last_modified',
} as const;
export type SystemColumn = (typeof systemColumns)[keyof typeof systemColumns];

/**
 * The other system properties Delivery filters and orders by, kept as value rows (SPEC 4.3 lists
 * the filterable ones; `sitemap_locations` is none of them).
 */
const valueSystemProperties = ['workflow', 'workflow_step'] as const;

/** Element kinds whose value holds codenames that `contains`/`any`/`all` compare (SPEC 4.3 rule 5). */
function membersOf(element: { readonly type: string; readonly value: unknown }): readonly string[] | null {
  const { type, value } = element;
  if ((type === 'modular_content' || type === 'subpages') && Array.isArray(value))
    return value.filter((v): v is string => typeof v === 'string');
  if ((type === 'multiple_choice' || type === 'taxonomy') && Array.isArray(value))
    return (value as { codename?: unknown }[]).map((v) => String(v.codename));
  if (type === 'custom' && typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) return parsed;
    } catch {
      // not a stringified array: contains/any/all never match it
    }
  }
  return null;
}

/**
 * JSON text as PostgreSQL prints jsonb (`", "` and `": "` separators, object keys by length, then
 * bytes), so ordering by an array or object value compares what the jsonb index compared.
 */
export function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => {
      const la = Buffer.byteLength(a);
      const lb = Buffer.byteLength(b);
      return la - lb || Buffer.compare(Buffer.from(a), Buffer.from(b));
    });
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function valueRow(property: string, value: unknown): ValueRow {
  if (typeof value === 'number') return { property, kind: 'n', num: value, txt: null };
  if (typeof value === 'string') return { property, kind: 's', num: null, txt: value };
  if (typeof value === 'boolean') return { property, kind: 'b', num: null, txt: null };
  if (Array.isArray(value)) return { property, kind: 'a', num: null, txt: jsonbText(value) };
  if (value !== null && typeof value === 'object') return { property, kind: 'o', num: null, txt: jsonbText(value) };
  return { property, kind: 'z', num: null, txt: null };
}

/** The value, member and link rows of one document. */
export function documentRows(doc: IndexDocument): {
  values: ValueRow[];
  members: MemberRow[];
  links: LinkRow[];
} {
  const values: ValueRow[] = [];
  const members: MemberRow[] = [];
  for (const name of valueSystemProperties) {
    const value = (doc.item.system as Readonly<Record<string, unknown>>)[name];
    if (value !== undefined) values.push(valueRow(`system.${name}`, value));
  }
  for (const [codename, element] of Object.entries(doc.item.elements)) {
    const property = `elements.${codename}`;
    values.push(valueRow(property, element.value));
    for (const member of new Set(membersOf(element))) members.push({ property, member });
  }
  const linksOf = (kind: LinkRow['kind'], targets: readonly string[]) =>
    [...new Set(targets)].map((target): LinkRow => ({ kind, target }));
  const links = [
    ...linksOf('d', doc.dependsOnItemIds),
    ...linksOf('a', doc.assetIds),
    ...linksOf('u', doc.usesItemCodenames),
  ];
  return { values, members, links };
}

/** What readers get back: the document without the writer-only fields and the read-ahead hint. */
function readerPart(doc: IndexDocument): IndexedVariant {
  return {
    itemId: doc.itemId,
    language: doc.language,
    item: doc.item,
    linkedItemCodenames: doc.linkedItemCodenames,
    components: doc.components,
    ...(doc.richTextAssets === undefined ? {} : { richTextAssets: doc.richTextAssets }),
  };
}

/**
 * The JSON readers get back (`body`, with the read-ahead hint `nextLinkedItemCodenames` when there
 * is one) and a hash of the rest with the document's links: equal hashes mean nothing a reader or
 * the indexer sees has changed, so a Sync change. The hint is left out of the hash: it changes
 * when a linked item's links do, which changes nothing this item delivers; `hint` is it as text,
 * for an adapter that rewrites a document whose hint changed (the search index's `whash`).
 */
export function documentBody(doc: IndexDocument): { body: string; hash: string; hint: string } {
  const reader = JSON.stringify(readerPart(doc));
  const links = JSON.stringify([doc.dependsOnItemIds, doc.assetIds, doc.usesItemCodenames]);
  const hash = createHash('sha256').update(reader).update('\n').update(links).digest('base64');
  const next = doc.nextLinkedItemCodenames ?? [];
  if (next.length === 0) return { body: reader, hash, hint: '' };
  const hint = JSON.stringify(next);
  return { body: `{"nextLinkedItemCodenames":${hint},${reader.slice(1)}`, hash, hint };
}
