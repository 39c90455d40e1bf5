import { Fragment, type Mark, type Node } from 'prosemirror-model';
import { richTextSchema as schema, type Gaps, type TableLayout } from './schema.ts';
import { isEmptyDoc, serializeRichText } from './rich-text-serialize.ts';

export { serializeRichText };

/**
 * Rich text HTML (the Management API's response form) → editor document. The value is parsed
 * by the browser's own HTML parser into an inert `<template>` (no script runs, no image loads)
 * and walked into the schema. Contract: for every value the Management API returns,
 * `serializeRichText(parseRichText(html)) === html` when the value's inline formatting nests in
 * the editor's order (link > em > strong > code > sub > sup) without empty or split runs;
 * otherwise the same text with the same formatting, written in that order (rich-text-html.test.ts).
 * Content outside the dialect (never in a normalised value) is kept as text, never dropped.
 */
export function parseRichText(html: string): Node {
  const template = document.createElement('template');
  template.innerHTML = html;
  const blocks = topBlocks(template.content.childNodes);
  if (blocks.length === 0) blocks.push(schema.nodes['paragraph']!.create());
  const doc = schema.nodes['doc']!.create(null, blocks);
  // The empty value (`<p><br/></p>`, whatever wrote it) opens as one empty paragraph.
  return isEmptyDoc(doc) ? schema.nodes['doc']!.create(null, schema.nodes['paragraph']!.create()) : doc;
}

const nodes = schema.nodes;

function topBlocks(children: NodeListOf<ChildNode>): Node[] {
  const out: Node[] = [];
  let stray: ChildNode[] = [];
  const flush = () => {
    if (stray.some((n) => !isWhitespaceText(n))) out.push(nodes['paragraph']!.create(null, inlineOf(stray)));
    stray = [];
  };
  for (const child of children) {
    const block = isElement(child) ? blockOf(child, 'top') : null;
    if (block === null) stray.push(child);
    else {
      flush();
      out.push(block);
    }
  }
  flush();
  return out;
}

function blockOf(element: Element, place: 'top' | 'cell'): Node | null {
  const name = element.localName;
  if (name === 'p') return nodes['paragraph']!.create(null, inlineOf(element.childNodes));
  const level = /^h([1-6])$/.exec(name)?.[1];
  if (level !== undefined) return nodes['heading']!.create({ level: Number(level) }, inlineOf(element.childNodes));
  if (name === 'ul' || name === 'ol') return listOf(element);
  if (name === 'figure') return nodes['figure']!.create({ assetId: element.getAttribute('data-asset-id') ?? '' });
  if (name === 'table' && place === 'top') return tableOf(element);
  if (name === 'object' && place === 'top') {
    const kind = element.getAttribute('data-type') === 'component' ? 'component' : 'item';
    return nodes['object']!.create({ kind, id: element.getAttribute('data-id') ?? '' });
  }
  return null;
}

/**
 * Children of a structural element (`ul`, `table`, `tbody`, `tr`, a block cell): the elements
 * `accept` converts, and the whitespace text before each and after the last.
 */
function structural<T>(parent: ParentNode, accept: (element: Element) => T | null): { items: T[]; gaps: string[] } {
  const items: T[] = [];
  const gaps: string[] = [''];
  for (const child of parent.childNodes) {
    const item = isElement(child) ? accept(child) : null;
    if (item !== null) {
      items.push(item);
      gaps.push('');
    } else if (child.nodeType === child.TEXT_NODE) {
      gaps[gaps.length - 1] += child.textContent ?? '';
    }
  }
  return { items, gaps };
}

/** Gaps worth keeping: null when all are empty. */
function keep(gaps: readonly string[]): Gaps {
  return gaps.every((gap) => gap === '') ? null : gaps;
}

function listOf(list: Element): Node {
  const { items, gaps } = structural(list, (child) => (child.localName === 'li' ? listItemOf(child) : null));
  return nodes[list.localName === 'ul' ? 'bullet_list' : 'ordered_list']!.create({ gaps: keep(gaps) }, items);
}

/** An `<li>`: runs of inline content (each a `list_text`) between nested lists. */
function listItemOf(item: Element): Node {
  const out: Node[] = [];
  let run: ChildNode[] = [];
  const flush = (isForced: boolean) => {
    // A run whose elements hold nothing (`<sup></sup>`) leaves no text, as it saves.
    const content = inlineOf(run);
    if (content.length > 0 || isForced) out.push(nodes['list_text']!.create(null, content));
    run = [];
  };
  for (const child of item.childNodes) {
    if (isElement(child) && (child.localName === 'ul' || child.localName === 'ol')) {
      flush(out.length === 0);
      out.push(listOf(child));
    } else run.push(child);
  }
  flush(out.length === 0);
  return nodes['list_item']!.create(null, out);
}

function tableOf(table: Element): Node {
  const rows: Node[] = [];
  const bodies = structural(table, (child) => {
    if (child.localName !== 'tbody') return null;
    const body = structural(child, (row) => (row.localName === 'tr' ? rowOf(row) : null));
    rows.push(...body.items);
    return { rows: body.items.length, gaps: body.gaps };
  });
  const isPlain =
    bodies.items.length === 1 && keep(bodies.gaps) === null && bodies.items.every((b) => keep(b.gaps) === null);
  const layout: TableLayout | null = isPlain ? null : { outer: bodies.gaps, bodies: bodies.items };
  return nodes['table']!.create({ layout }, rows);
}

function rowOf(row: Element): Node {
  const { items, gaps } = structural(row, (cell) => (cell.localName === 'td' ? cellOf(cell) : null));
  return nodes['table_row']!.create({ gaps: keep(gaps) }, items);
}

const cellBlockNames = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'figure']);

/** A `<td>` holds inline content (one `cell_text`) or blocks. */
function cellOf(cell: Element): Node {
  const hasBlocks = [...cell.children].some((child) => cellBlockNames.has(child.localName));
  if (!hasBlocks) return nodes['table_cell']!.create(null, nodes['cell_text']!.create(null, inlineOf(cell.childNodes)));
  const { items, gaps } = structural(cell, (child) => blockOf(child, 'cell'));
  return nodes['table_cell']!.create({ gaps: keep(gaps) }, items);
}

const markOfTag: Readonly<Record<string, string>> = {
  strong: 'strong',
  em: 'em',
  code: 'code',
  sub: 'sub',
  sup: 'sup',
};

function inlineOf(children: Iterable<ChildNode>, marks: readonly Mark[] = []): Node[] {
  const out: Node[] = [];
  for (const child of children) {
    if (child.nodeType === child.TEXT_NODE) {
      const text = child.textContent ?? '';
      if (text !== '') out.push(schema.text(text, marks));
      continue;
    }
    if (!isElement(child)) continue;
    const name = child.localName;
    if (name === 'br') {
      out.push(nodes['hard_break']!.create(null, null, marks));
      continue;
    }
    const mark = name === 'a' ? linkMark(child) : markOfTag[name] ? schema.marks[markOfTag[name]]!.create() : null;
    out.push(...inlineOf(child.childNodes, mark === null ? marks : mark.addToSet(marks)));
  }
  return Fragment.fromArray(out).content.slice();
}

function linkMark(link: Element): Mark | null {
  const get = (name: string) => link.getAttribute(name);
  const kinds = [
    ['item', 'data-item-id'],
    ['asset', 'data-asset-id'],
    ['email', 'data-email-address'],
    ['phone', 'data-phone-number'],
    ['web', 'href'],
  ] as const;
  const found = kinds.find(([, attribute]) => get(attribute) !== null);
  if (found === undefined) return null;
  return schema.marks['link']!.create({
    kind: found[0],
    target: get(found[1]),
    subject: get('data-email-subject'),
    isNewWindow: get('data-new-window') === 'true',
    title: get('title'),
  });
}

function isElement(node: ChildNode): node is Element {
  return node.nodeType === node.ELEMENT_NODE;
}

function isWhitespaceText(node: ChildNode): boolean {
  return node.nodeType === node.TEXT_NODE && /^[ \t\n\f\r]*$/.test(node.textContent ?? '');
}
