import { Schema, type Attrs, type DOMOutputSpec, type MarkSpec, type NodeSpec } from 'prosemirror-model';

/**
 * The editor's document model is Kontent.ai's rich text as the Management API writes it
 * (Lectern's normaliser, packages/core/src/content/rich-text/convert.ts):
 *
 *   top level   p, h1–h6, ul, ol, table, figure, object
 *   li          inline runs and nested lists, in any order  → list_text / lists
 *   td          inline content, or blocks p, h1–h6, ul, ol, figure  → cell_text / blocks
 *   inline      text, br, marks a > em > strong > code > sub > sup (outermost first)
 *
 * `list_text` and `cell_text` are textblocks written without a wrapper element: they hold the
 * inline runs of an `<li>` or of an inline-only `<td>`. Whitespace the API keeps between
 * structural elements (`<ul>\n  <li>`) is kept in `gaps` attributes, so values open and save
 * back unchanged; `gaps` is used only while its length still fits the node's children.
 */

/** Whitespace before each child and after the last one (length = childCount + 1), or null. */
export type Gaps = readonly string[] | null;

const gapsAttr = { gaps: { default: null as Gaps } };

const cellAttrs = {
  colspan: { default: 1 },
  rowspan: { default: 1 },
  colwidth: { default: null },
  ...gapsAttr,
};

const nodes: Record<string, NodeSpec> = {
  doc: { content: 'block+' },
  // Listed before paragraph: the first member of `cell_content` is what new cells get.
  cell_text: {
    content: 'inline*',
    group: 'cell_content',
    marks: '_',
    parseDOM: [],
    toDOM: () => ['div', { class: 'rt-cell-text' }, 0],
  },
  list_text: {
    content: 'inline*',
    marks: '_',
    parseDOM: [{ tag: 'p', context: 'list_item/' }],
    toDOM: () => ['div', { class: 'rt-list-text' }, 0],
  },
  paragraph: {
    content: 'inline*',
    group: 'block cell_content',
    parseDOM: [{ tag: 'p' }, { tag: 'div', priority: 10 }],
    toDOM: () => ['p', 0],
  },
  heading: {
    attrs: { level: { default: 2 } },
    content: 'inline*',
    group: 'block cell_content',
    defining: true,
    parseDOM: [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level } })),
    toDOM: (node): DOMOutputSpec => [`h${String(node.attrs['level'])}`, 0],
  },
  bullet_list: {
    attrs: gapsAttr,
    content: 'list_item*',
    group: 'block cell_content',
    parseDOM: [{ tag: 'ul' }],
    toDOM: () => ['ul', 0],
  },
  ordered_list: {
    attrs: gapsAttr,
    content: 'list_item*',
    group: 'block cell_content',
    parseDOM: [{ tag: 'ol' }],
    toDOM: () => ['ol', 0],
  },
  list_item: {
    content: 'list_text (list_text | bullet_list | ordered_list)*',
    defining: true,
    parseDOM: [{ tag: 'li' }],
    toDOM: () => ['li', 0],
  },
  table: {
    // `layout`: how the rows sit in <tbody> elements and the whitespace around them.
    attrs: { layout: { default: null as TableLayout | null } },
    content: 'table_row*',
    tableRole: 'table',
    isolating: true,
    group: 'block',
    parseDOM: [{ tag: 'table' }],
    toDOM: () => ['div', { class: 'rt-table-wrap' }, ['table', ['tbody', 0]]],
  },
  table_row: {
    attrs: gapsAttr,
    content: 'table_cell*',
    tableRole: 'row',
    parseDOM: [{ tag: 'tr' }],
    toDOM: () => ['tr', 0],
  },
  table_cell: {
    attrs: cellAttrs,
    content: 'cell_content+',
    tableRole: 'cell',
    isolating: true,
    parseDOM: [{ tag: 'td' }, { tag: 'th' }],
    toDOM: () => ['td', 0],
  },
  figure: {
    attrs: { assetId: { default: '' } },
    group: 'block cell_content',
    atom: true,
    draggable: true,
    selectable: true,
    parseDOM: [
      {
        tag: 'figure[data-asset-id]',
        getAttrs: (dom: HTMLElement) => ({ assetId: dom.getAttribute('data-asset-id') ?? '' }),
      },
    ],
    toDOM: (node) => ['figure', { 'data-asset-id': String(node.attrs['assetId']) }],
  },
  object: {
    // kind: 'item' (a linked item) or 'component'.
    attrs: { kind: { default: 'item' }, id: { default: '' } },
    group: 'block',
    atom: true,
    draggable: true,
    selectable: true,
    parseDOM: [
      {
        tag: 'object[type="application/kenticocloud"]',
        getAttrs: (dom: HTMLElement) => {
          const kind = dom.getAttribute('data-type');
          const id = dom.getAttribute('data-id');
          // Pasted components are kept only when the element knows them (components-plugin.ts).
          return (kind === 'item' || kind === 'component') && id !== null ? { kind, id } : false;
        },
      },
    ],
    // What the clipboard carries (the editor shows objects through node views).
    toDOM: (node) => [
      'object',
      {
        type: 'application/kenticocloud',
        'data-type': String(node.attrs['kind']),
        'data-id': String(node.attrs['id']),
      },
    ],
  },
  text: { group: 'inline' },
  hard_break: {
    inline: true,
    group: 'inline',
    selectable: false,
    parseDOM: [{ tag: 'br' }],
    toDOM: () => ['br'],
  },
};

/** `<tbody>` elements of a table and the whitespace around them and their rows. */
export interface TableLayout {
  /** Whitespace before each tbody and after the last (length = bodies.length + 1). */
  readonly outer: readonly string[];
  readonly bodies: readonly { readonly rows: number; readonly gaps: readonly string[] }[];
}

/** What a link points at, as the API names it. */
export type LinkKind = 'web' | 'item' | 'asset' | 'email' | 'phone';

export interface LinkAttrs {
  readonly kind: LinkKind;
  /** The URL, item id, asset id, e-mail address or phone number. */
  readonly target: string;
  readonly subject: string | null;
  readonly isNewWindow: boolean;
  readonly title: string | null;
}

function linkFromDom(dom: HTMLElement): Attrs | false {
  const get = (name: string) => dom.getAttribute(name);
  const common = { title: get('title'), subject: null, isNewWindow: get('data-new-window') === 'true' };
  const item = get('data-item-id');
  if (item !== null) return { ...common, kind: 'item', target: item, isNewWindow: false };
  const asset = get('data-asset-id');
  if (asset !== null) return { ...common, kind: 'asset', target: asset };
  const email = get('data-email-address');
  if (email !== null) return { ...common, kind: 'email', target: email, subject: get('data-email-subject') };
  const phone = get('data-phone-number');
  if (phone !== null) return { ...common, kind: 'phone', target: phone, isNewWindow: false };
  const href = get('href');
  if (href === null || href === '') return false;
  if (href.startsWith('mailto:')) return { ...common, kind: 'email', target: href.slice(7).split('?')[0] ?? '' };
  if (href.startsWith('tel:')) return { ...common, kind: 'phone', target: href.slice(4) };
  return { ...common, kind: 'web', target: href, isNewWindow: common.isNewWindow || get('target') === '_blank' };
}

// Order is nesting order: a mark earlier in this list is written outside a later one (as
// Kontent.ai writes `<a …><em><strong>`).
const marks: Record<string, MarkSpec> = {
  link: {
    attrs: {
      kind: { default: 'web' },
      target: { default: '' },
      subject: { default: null },
      isNewWindow: { default: false },
      title: { default: null },
    },
    inclusive: false,
    parseDOM: [{ tag: 'a', getAttrs: linkFromDom }],
    toDOM: (mark) => ['a', { class: `rt-link rt-link-${String(mark.attrs['kind'])}`, title: mark.attrs['title'] }, 0],
  },
  em: {
    parseDOM: [{ tag: 'em' }, { tag: 'i' }, { style: 'font-style=italic' }],
    toDOM: () => ['em', 0],
  },
  strong: {
    parseDOM: [
      { tag: 'strong' },
      { tag: 'b', getAttrs: (dom: HTMLElement) => dom.style.fontWeight !== 'normal' && null },
      { style: 'font-weight', getAttrs: (value: string) => /^(bold(er)?|[6-9]\d{2,})$/.test(value) && null },
    ],
    toDOM: () => ['strong', 0],
  },
  code: { parseDOM: [{ tag: 'code' }], toDOM: () => ['code', 0] },
  sub: { parseDOM: [{ tag: 'sub' }], toDOM: () => ['sub', 0] },
  sup: { parseDOM: [{ tag: 'sup' }], toDOM: () => ['sup', 0] },
};

export const richTextSchema = new Schema({ nodes, marks });
