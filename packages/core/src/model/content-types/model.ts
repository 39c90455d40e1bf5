import type { ModelRecord } from '../../domain/model-record.ts';

/** Element kinds of type and snippet definitions (reference §4). */
export const elementTypes = [
  'text',
  'rich_text',
  'number',
  'date_time',
  'multiple_choice',
  'asset',
  'modular_content',
  'subpages',
  'taxonomy',
  'url_slug',
  'custom',
  'guidelines',
  'snippet',
] as const;
export type ElementType = (typeof elementTypes)[number];

export interface IdRef {
  readonly id: string;
}

/**
 * One element definition, stored exactly as the Management API returns it (reference §4): nested
 * objects keep their own `id`, `codename` and `external_id`, and references hold ids only.
 */
export interface ElementBody {
  readonly id: string;
  readonly codename: string;
  readonly type: ElementType;
  readonly external_id?: string;
  readonly content_group?: IdRef;
  readonly [property: string]: unknown;
}

export interface ContentGroupBody {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly external_id?: string;
}

/** Stored body of a content type: the wire form minus the identifying columns. */
export interface ContentTypeBody {
  readonly name: string;
  readonly content_groups: ContentGroupBody[];
  readonly elements: ElementBody[];
}

/** Stored body of a content type snippet. */
export interface SnippetBody {
  readonly name: string;
  readonly elements: ElementBody[];
}

export type ContentTypeRecord = ModelRecord<ContentTypeBody>;
export type SnippetRecord = ModelRecord<SnippetBody>;

function identity(r: ModelRecord<object>) {
  return {
    id: r.id,
    codename: r.codename,
    last_modified: r.lastModified.toISOString(),
    ...(r.externalId === null ? {} : { external_id: r.externalId }),
  };
}

/** The Management API form of a content type (reference §2.5). */
export function contentTypeJson(r: ContentTypeRecord) {
  return {
    ...identity(r),
    name: r.body.name,
    content_groups: r.body.content_groups.map((g) => ({ ...g })),
    elements: r.body.elements.map((e) => ({ ...e })),
  };
}

/** The Management API form of a content type snippet (reference §2.5). */
export function snippetJson(r: SnippetRecord) {
  return { ...identity(r), name: r.body.name, elements: r.body.elements.map((e) => ({ ...e })) };
}
