import type { ElementBody } from '@lectern/core';
import type { MarkType, Node, ResolvedPos } from 'prosemirror-model';

/**
 * A rich text element's limitations (the type's element definition as the Management API returns
 * it, reference management-api.md "rich_text"), read once into sets the editor checks while
 * typing. An empty list in the definition means "everything allowed".
 */
export interface RichTextLimits {
  readonly blocks: ReadonlySet<string>;
  readonly textBlocks: ReadonlySet<string>;
  readonly formatting: ReadonlySet<string>;
  readonly tableBlocks: ReadonlySet<string>;
  readonly tableTextBlocks: ReadonlySet<string>;
  readonly tableFormatting: ReadonlySet<string>;
  /** Types allowed for components and linked items; null = any. */
  readonly contentTypeIds: readonly string[] | null;
  /** Types an item link may point at; null = any. */
  readonly itemLinkTypeIds: readonly string[] | null;
  readonly maximumTextLength: { readonly value: number; readonly appliesTo: 'words' | 'characters' } | null;
  readonly maximumImageSize: number | null;
  readonly imageWidthLimit: SizeLimit | null;
  readonly imageHeightLimit: SizeLimit | null;
  /** 'adjustable': only images the Image API can transform (jpeg, png, gif, webp). */
  readonly allowedImageTypes: 'adjustable' | 'any';
}

export interface SizeLimit {
  readonly value: number;
  readonly condition: 'at_most' | 'exactly' | 'at_least';
}

const allBlocks = ['images', 'text', 'tables', 'components-and-items'];
const allTextBlocks = [
  'paragraph',
  'heading-one',
  'heading-two',
  'heading-three',
  'heading-four',
  'heading-five',
  'heading-six',
  'ordered-list',
  'unordered-list',
];
const allFormatting = ['unstyled', 'bold', 'italic', 'code', 'link', 'subscript', 'superscript'];
const allTableBlocks = ['images', 'text'];

function set(value: unknown, all: readonly string[]): ReadonlySet<string> {
  const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return new Set(list.length === 0 ? all : list);
}

function refs(value: unknown): readonly string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.flatMap((ref: unknown) =>
    typeof ref === 'object' && ref !== null && typeof (ref as { id?: unknown }).id === 'string'
      ? [(ref as { id: string }).id]
      : [],
  );
}

function sizeLimit(value: unknown): SizeLimit | null {
  if (typeof value !== 'object' || value === null) return null;
  const { value: size, condition } = value as { value?: unknown; condition?: unknown };
  if (typeof size !== 'number') return null;
  return { value: size, condition: condition === 'exactly' || condition === 'at_least' ? condition : 'at_most' };
}

export function readLimits(element: ElementBody): RichTextLimits {
  const length = element['maximum_text_length'] as { value?: unknown; applies_to?: unknown } | null | undefined;
  return {
    blocks: set(element['allowed_blocks'], allBlocks),
    textBlocks: set(element['allowed_text_blocks'], allTextBlocks),
    formatting: set(element['allowed_formatting'], allFormatting),
    tableBlocks: set(element['allowed_table_blocks'], allTableBlocks),
    tableTextBlocks: set(element['allowed_table_text_blocks'], allTextBlocks),
    tableFormatting: set(element['allowed_table_formatting'], allFormatting),
    contentTypeIds: refs(element['allowed_content_types']),
    itemLinkTypeIds: refs(element['allowed_item_link_types']),
    maximumTextLength:
      length && typeof length.value === 'number'
        ? { value: length.value, appliesTo: length.applies_to === 'words' ? 'words' : 'characters' }
        : null,
    maximumImageSize: typeof element['maximum_image_size'] === 'number' ? element['maximum_image_size'] : null,
    imageWidthLimit: sizeLimit(element['image_width_limit']),
    imageHeightLimit: sizeLimit(element['image_height_limit']),
    allowedImageTypes: element['allowed_image_types'] === 'adjustable' ? 'adjustable' : 'any',
  };
}

const headingNames = ['one', 'two', 'three', 'four', 'five', 'six'];

/** The limitation name of a text block node (`heading-two`, `ordered-list`), or null for others. */
export function textBlockName(type: string, level?: number): string | null {
  if (type === 'paragraph') return 'paragraph';
  if (type === 'heading') return `heading-${headingNames[(level ?? 1) - 1] ?? 'one'}`;
  if (type === 'bullet_list') return 'unordered-list';
  if (type === 'ordered_list') return 'ordered-list';
  return null;
}

/** The limitation name of each mark. */
const formattingOfMark: Readonly<Record<string, string>> = {
  strong: 'bold',
  em: 'italic',
  code: 'code',
  link: 'link',
  sub: 'subscript',
  sup: 'superscript',
};

/** True when the position is inside a table cell (where the table limitations apply). */
export function isInTable($pos: ResolvedPos): boolean {
  for (let depth = $pos.depth; depth > 0; depth -= 1) if ($pos.node(depth).type.name === 'table_cell') return true;
  return false;
}

export function isMarkAllowed(limits: RichTextLimits, mark: MarkType, isTable: boolean): boolean {
  const name = formattingOfMark[mark.name];
  return name === undefined || (isTable ? limits.tableFormatting : limits.formatting).has(name);
}

/**
 * Whether a block may stand where it is (`isTable`: inside a table cell). Paragraphs, the
 * editor's default block, are always allowed: Enter must always be able to make one; an element
 * that disallows them is checked by the API on save.
 */
export function isBlockAllowed(limits: RichTextLimits, node: Node, isTable: boolean): boolean {
  const blocks = isTable ? limits.tableBlocks : limits.blocks;
  const textBlocks = isTable ? limits.tableTextBlocks : limits.textBlocks;
  const name = node.type.name;
  if (name === 'figure') return blocks.has('images');
  if (name === 'table') return !isTable && blocks.has('tables');
  if (name === 'object') return !isTable && blocks.has('components-and-items');
  if (name === 'paragraph') return true;
  const textBlock = textBlockName(name, node.attrs['level'] as number | undefined);
  return textBlock === null || (blocks.has('text') && textBlocks.has(textBlock));
}

/** Blocks and formatted runs the limits refuse, counted over a document (cached per document). */
const counts = new WeakMap<Node, WeakMap<RichTextLimits, number>>();

export function countViolations(doc: Node, limits: RichTextLimits): number {
  const cached = counts.get(doc)?.get(limits);
  if (cached !== undefined) return cached;
  let count = 0;
  const visit = (node: Node, isTable: boolean) => {
    node.forEach((child) => {
      if (!child.isInline && !isBlockAllowed(limits, child, isTable)) count += 1;
      visit(child, isTable || child.type.name === 'table_cell');
    });
  };
  visit(doc, false);
  const perLimits = counts.get(doc) ?? new WeakMap<RichTextLimits, number>();
  perLimits.set(limits, count);
  counts.set(doc, perLimits);
  return count;
}
