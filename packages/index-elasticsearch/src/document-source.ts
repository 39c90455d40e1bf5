import { createHash } from 'node:crypto';
import { documentBody, documentRows, type DeliveryChannel, type IndexDocument } from '@lectern/core';

/** What the engine stores per document version (see mapping.ts). */
export interface DocumentSource {
  readonly project: string;
  readonly channel: DeliveryChannel;
  readonly item_id: string;
  readonly language: string;
  readonly codename: string;
  readonly name: string;
  readonly type: string;
  readonly collection: string;
  readonly last_modified: string;
  readonly langs: readonly string[];
  readonly from: number;
  readonly until?: number;
  readonly archived_at?: number;
  readonly hash: string;
  readonly whash: string;
  readonly dep: readonly string[];
  readonly assets: readonly string[];
  readonly uses: readonly string[];
  readonly body: string;
  readonly sys: string;
  readonly v: Record<string, Record<string, ValueFields>>;
  readonly m: Record<string, Record<string, string[]>>;
}

interface ValueFields {
  k: string;
  n?: number;
  s?: string;
  t?: string;
  e: boolean;
}

/** `elements.title` → [`elements`, `title`]: the object path under `v` and `m`. */
function split(property: string): [string, string] {
  const dot = property.indexOf('.');
  return [property.slice(0, dot), property.slice(dot + 1)];
}

/** The key of a document (channel, item, language); its versions' ids add the sequence. */
export const documentKey = (channel: string, itemId: string, language: string) => `${channel}:${itemId}:${language}`;
export const versionId = (key: string, from: number) => `${key}@${from}`;

/**
 * The source of a document version visible from sequence `from`. `langs`: the languages the item
 * has documents in, in this channel.
 */
export function documentSource(options: {
  projectId: string;
  channel: DeliveryChannel;
  doc: IndexDocument;
  langs: readonly string[];
  from: number;
}): DocumentSource {
  const { channel, doc, langs, from } = options;
  const { body, hash, hint } = documentBody(doc);
  const whash = createHash('sha256')
    .update(hash)
    .update('\n')
    .update(langs.join(','))
    .update(hint === '' ? '' : `\n${hint}`)
    .digest('base64');
  const rows = documentRows(doc);
  const v: DocumentSource['v'] = {};
  for (const row of rows.values) {
    const [scope, name] = split(row.property);
    const fields: ValueFields = { k: row.kind, e: false };
    if (row.kind === 'n' && row.num !== null) fields.n = row.num;
    if (row.kind === 's' && row.txt !== null) fields.s = row.txt;
    if ((row.kind === 's' || row.kind === 'a' || row.kind === 'o') && row.txt !== null) fields.t = row.txt;
    fields.e = row.kind === 'z' || (row.kind === 's' && row.txt === '') || (row.kind === 'a' && row.txt === '[]');
    (v[scope] ??= {})[name] = fields;
  }
  const m: DocumentSource['m'] = {};
  for (const row of rows.members) {
    const [scope, name] = split(row.property);
    ((m[scope] ??= {})[name] ??= []).push(row.member);
  }
  const linksOf = (kind: 'd' | 'a' | 'u') => rows.links.filter((l) => l.kind === kind).map((l) => l.target);
  const system = doc.item.system;
  return {
    project: options.projectId,
    channel,
    item_id: doc.itemId,
    language: doc.language,
    codename: system.codename,
    name: system.name,
    type: system.type,
    collection: system.collection,
    last_modified: system.last_modified,
    langs,
    from,
    hash,
    whash,
    dep: linksOf('d'),
    assets: linksOf('a'),
    uses: linksOf('u'),
    body,
    sys: JSON.stringify(system),
    v,
    m,
  };
}
