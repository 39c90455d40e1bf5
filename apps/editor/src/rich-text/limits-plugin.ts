import { Fragment, Slice, type Node } from 'prosemirror-model';
import { Plugin, PluginKey, type Transaction } from 'prosemirror-state';
import { countViolations, isBlockAllowed, isInTable, isMarkAllowed, type RichTextLimits } from './limits.ts';
import { richTextSchema as schema } from './schema.ts';

const limitsKey = new PluginKey<RichTextLimits>('rich-text-limits');

/**
 * Enforces the element's limitations while the person types:
 * - a change that adds a block the limits refuse (a heading level, a list, a table, an image,
 *   a component…) is dropped (`filterTransaction`), whatever made it (command, drop, paste);
 * - formatting the limits refuse is removed from whatever a change touched (`appendTransaction`),
 *   so typing into a disallowed mark writes plain text;
 * - pasted content is cleaned first (`transformPasted`): refused formatting removed, refused
 *   headings and lists turned into paragraphs, refused tables into their cells' text, refused
 *   images and objects left out, so a paste keeps what it may.
 * Content already in a value that the limits refuse stays until edited (the API reports it).
 */
export function limitsPlugin(limits: RichTextLimits): Plugin<RichTextLimits> {
  return new Plugin<RichTextLimits>({
    key: limitsKey,
    state: { init: () => limits, apply: (_tr, value) => value },
    filterTransaction(tr, state) {
      if (!tr.docChanged) return true;
      return countViolations(tr.doc, limits) <= countViolations(state.doc, limits);
    },
    appendTransaction(transactions, oldState, newState) {
      if (!transactions.some((tr) => tr.docChanged)) return null;
      const start = oldState.doc.content.findDiffStart(newState.doc.content);
      const end = oldState.doc.content.findDiffEnd(newState.doc.content);
      if (start === null || end === null) return null;
      const to = Math.max(start, end.b);
      return stripMarks(newState.tr, newState.doc, { from: start, to }, limits);
    },
    props: {
      transformPasted(slice, view) {
        const isTable = isInTable(view.state.selection.$from);
        const cleaned = cleanFragment(slice.content, limits, isTable, 'doc');
        if (!cleaned.isReshaped) return new Slice(cleaned.fragment, slice.openStart, slice.openEnd);
        return Slice.maxOpen(cleaned.fragment);
      },
    },
  });
}

/** Removes refused marks from the inline content between `from` and `to`; null when none. */
function stripMarks(
  tr: Transaction,
  doc: Node,
  range: { from: number; to: number },
  limits: RichTextLimits,
): Transaction | null {
  doc.nodesBetween(range.from, Math.min(range.to, doc.content.size), (node, pos) => {
    if (!node.isInline) return true;
    const isTable = isInTable(doc.resolve(pos));
    const from = Math.max(pos, range.from);
    const to = Math.min(pos + node.nodeSize, range.to);
    for (const mark of node.marks)
      if (from < to && !isMarkAllowed(limits, mark.type, isTable)) tr.removeMark(from, to, mark.type);
    return false;
  });
  return tr.docChanged ? tr : null;
}

interface Cleaned {
  readonly fragment: Fragment;
  /** True when blocks were replaced or left out (the slice's open depths no longer apply). */
  readonly isReshaped: boolean;
}

/** A fragment with what the limits refuse removed or turned into what they allow. */
function cleanFragment(fragment: Fragment, limits: RichTextLimits, isTable: boolean, parent: string): Cleaned {
  let isReshaped = false;
  const out: Node[] = [];
  fragment.forEach((node) => {
    if (node.isInline) {
      out.push(node.mark(node.marks.filter((mark) => isMarkAllowed(limits, mark.type, isTable))));
      return;
    }
    const isInside = isTable || node.type.name === 'table_cell';
    const inner = node.isLeaf ? null : cleanFragment(node.content, limits, isInside, node.type.name);
    if (inner?.isReshaped === true) isReshaped = true;
    const cleaned = inner === null ? node : node.copy(inner.fragment);
    if (isBlockAllowed(limits, cleaned, isTable)) {
      out.push(cleaned);
      return;
    }
    isReshaped = true;
    out.push(...fallbackBlocks(cleaned, parent === 'list_item' ? 'list_text' : 'paragraph'));
  });
  // A cell keeps a (possibly empty) text block when all its content was refused.
  if (parent === 'table_cell' && out.length === 0) out.push(schema.nodes['cell_text']!.create());
  return { fragment: Fragment.fromArray(out), isReshaped };
}

/** What a refused block becomes: its text as paragraphs (nothing for images and objects). */
function fallbackBlocks(node: Node, textType: 'paragraph' | 'list_text'): Node[] {
  if (node.isTextblock) return [schema.nodes[textType]!.create(null, node.content)];
  const paragraphs: Node[] = [];
  node.descendants((child) => {
    if (!child.isTextblock) return true;
    paragraphs.push(schema.nodes[textType]!.create(null, child.content));
    return false;
  });
  return paragraphs;
}
