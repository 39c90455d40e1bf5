import type { Mark, Node } from 'prosemirror-model';
import type { Gaps, LinkAttrs, TableLayout } from './schema.ts';

/**
 * Editor document → rich text HTML in the Management API's response form, byte for byte as
 * Lectern's normaliser writes it (packages/core/src/content/rich-text/serialize.ts): attributes
 * in its order, `<br/>`, `&nbsp;` as an entity, `<figure data-asset-id><img src="#" …></figure>`,
 * and the empty value `<p><br/></p>`. A pure function of the document.
 */
export function serializeRichText(doc: Node): string {
  if (isEmptyDoc(doc)) return emptyRichText;
  let out = '';
  doc.forEach((block) => {
    out += blockHtml(block);
  });
  return out;
}

/** The stored and returned form of an empty rich text value. */
const emptyRichText = '<p><br/></p>';

/** The normaliser's rule: one paragraph holding nothing but unformatted whitespace and line breaks. */
export function isEmptyDoc(doc: Node): boolean {
  const only = doc.firstChild;
  if (doc.childCount !== 1 || only === null || only.type.name !== 'paragraph') return false;
  let isEmpty = true;
  only.forEach((child) => {
    const isBlank = child.isText ? /^[ \t\n\f\r]*$/.test(child.text ?? '') : child.type.name === 'hard_break';
    if (!isBlank || child.marks.length > 0) isEmpty = false;
  });
  return isEmpty;
}

function blockHtml(node: Node): string {
  switch (node.type.name) {
    case 'paragraph':
      return `<p>${inlineHtml(node)}</p>`;
    case 'heading': {
      const tag = `h${String(node.attrs['level'])}`;
      return `<${tag}>${inlineHtml(node)}</${tag}>`;
    }
    case 'cell_text':
    case 'list_text':
      // Only where a block must stand (a cell that also holds blocks); otherwise the caller inlines it.
      return `<p>${inlineHtml(node)}</p>`;
    case 'bullet_list':
    case 'ordered_list': {
      const tag = node.type.name === 'bullet_list' ? 'ul' : 'ol';
      return `<${tag}>${gapped(node, node.attrs['gaps'] as Gaps, listItemHtml)}</${tag}>`;
    }
    case 'table':
      return tableHtml(node);
    case 'figure': {
      const id = escapeAttribute(String(node.attrs['assetId']));
      return `<figure data-asset-id="${id}"><img src="#" data-asset-id="${id}"></figure>`;
    }
    case 'object': {
      const kind = node.attrs['kind'] === 'component' ? 'component' : 'item';
      const id = escapeAttribute(String(node.attrs['id']));
      return `<object type="application/kenticocloud" data-type="${kind}" data-id="${id}"></object>`;
    }
    default:
      return `<p>${escapeText(node.textContent)}</p>`;
  }
}

/** Children written with the whitespace kept beside them, when it still fits. */
function gapped(node: Node, gaps: Gaps, write: (child: Node) => string): string {
  const fits = gaps !== null && gaps.length === node.childCount + 1;
  let out = '';
  node.forEach((child, _offset, index) => {
    out += (fits ? gaps[index] : '') + write(child);
  });
  return out + (fits ? (gaps[node.childCount] ?? '') : '');
}

/**
 * An item's text runs and nested lists. Two runs side by side (an editing result: a nested list
 * turned into text) are two lines on screen, so a line break goes between them.
 */
function listItemHtml(item: Node): string {
  let out = '';
  let isAfterText = false;
  item.forEach((child) => {
    const isText = child.type.name === 'list_text';
    if (isText && isAfterText) out += '<br/>';
    out += isText ? inlineHtml(child) : blockHtml(child);
    isAfterText = isText;
  });
  return `<li>${out}</li>`;
}

function tableHtml(table: Node): string {
  const rows: Node[] = [];
  table.forEach((row) => rows.push(row));
  const layout = table.attrs['layout'] as TableLayout | null;
  const fits =
    layout !== null &&
    layout.outer.length === layout.bodies.length + 1 &&
    layout.bodies.reduce((sum, body) => sum + body.rows, 0) === rows.length &&
    layout.bodies.every((body) => body.gaps.length === body.rows + 1);
  if (!fits) return `<table><tbody>${rows.map(rowHtml).join('')}</tbody></table>`;
  let out = '<table>';
  let next = 0;
  layout.bodies.forEach((body, i) => {
    out += `${layout.outer[i] ?? ''}<tbody>`;
    for (let r = 0; r < body.rows; r += 1) out += (body.gaps[r] ?? '') + rowHtml(rows[next + r]!);
    next += body.rows;
    out += `${body.gaps[body.rows] ?? ''}</tbody>`;
  });
  return `${out}${layout.outer[layout.bodies.length] ?? ''}</table>`;
}

function rowHtml(row: Node): string {
  return `<tr>${gapped(row, row.attrs['gaps'] as Gaps, cellHtml)}</tr>`;
}

/** A cell holding one `cell_text` is inline-only; any other cell holds blocks. */
function cellHtml(cell: Node): string {
  const only = cell.firstChild;
  if (cell.childCount === 1 && only !== null && only.type.name === 'cell_text') return `<td>${inlineHtml(only)}</td>`;
  return `<td>${gapped(cell, cell.attrs['gaps'] as Gaps, blockHtml)}</td>`;
}

/**
 * Inline content with marks nested in schema order; a mark stays open across neighbours that
 * share it and every mark outside it (as ProseMirror's own DOM serialiser does).
 */
function inlineHtml(block: Node): string {
  let out = '';
  const open: Mark[] = [];
  block.forEach((child) => {
    const marks = child.marks;
    let keep = 0;
    while (keep < open.length && keep < marks.length && open[keep]!.eq(marks[keep]!)) keep += 1;
    while (open.length > keep) out += closeTag(open.pop()!);
    for (let i = keep; i < marks.length; i += 1) {
      out += openTag(marks[i]!);
      open.push(marks[i]!);
    }
    out += child.isText ? escapeText(child.text ?? '') : child.type.name === 'hard_break' ? '<br/>' : '';
  });
  while (open.length > 0) out += closeTag(open.pop()!);
  return out;
}

function openTag(mark: Mark): string {
  if (mark.type.name !== 'link') return `<${mark.type.name}>`;
  const link = mark.attrs as LinkAttrs;
  const attrs: [string, string][] = [];
  const targetAttribute = {
    web: 'href',
    item: 'data-item-id',
    asset: 'data-asset-id',
    email: 'data-email-address',
    phone: 'data-phone-number',
  }[link.kind];
  attrs.push([targetAttribute, link.target]);
  if (link.kind === 'email' && link.subject !== null) attrs.push(['data-email-subject', link.subject]);
  if ((link.kind === 'web' || link.kind === 'asset') && link.isNewWindow) attrs.push(['data-new-window', 'true']);
  if (link.title !== null) attrs.push(['title', link.title]);
  return `<a${attrs.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('')}>`;
}

function closeTag(mark: Mark): string {
  return `</${mark.type.name === 'link' ? 'a' : mark.type.name}>`;
}

const entities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\u00a0': '&nbsp;',
};

function escapeText(value: string): string {
  return value.replace(/[&<>\u00a0]/g, (c) => entities[c] ?? c);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"\u00a0]/g, (c) => entities[c] ?? c);
}
