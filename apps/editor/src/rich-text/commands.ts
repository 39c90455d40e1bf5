import { setBlockType, toggleMark } from 'prosemirror-commands';
import type { Attrs, Node, NodeType } from 'prosemirror-model';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import { NodeSelection, TextSelection, type Command, type EditorState } from 'prosemirror-state';
import { isBlockAllowed, isInTable, isMarkAllowed, type RichTextLimits } from './limits.ts';
import { richTextSchema as schema, type LinkAttrs } from './schema.ts';

/**
 * Editing commands, each refusing (returning false, so its button is disabled) what the
 * element's limits do not allow where the selection is.
 */

const nodes = schema.nodes;

/** Whether the limits allow a paragraph (level null) or heading where the selection is. */
export function isTextBlockAllowed(state: EditorState, limits: RichTextLimits, level: number | null): boolean {
  const node = level === null ? nodes['paragraph']!.create() : nodes['heading']!.create({ level });
  return isBlockAllowed(limits, node, isInTable(state.selection.$from));
}

/** Paragraph or heading 1–6 for the selected text blocks. */
export function setTextBlock(limits: RichTextLimits, level: number | null): Command {
  const type = level === null ? nodes['paragraph']! : nodes['heading']!;
  const attrs = level === null ? null : { level };
  return (state, dispatch) => {
    if (!isBlockAllowed(limits, type.create(attrs), isInTable(state.selection.$from))) return false;
    return setBlockType(type, attrs)(state, dispatch);
  };
}

/** B, I, code, sub, sup: toggles the mark, when the limits allow it here. */
export function toggleFormatting(limits: RichTextLimits, markName: string): Command {
  const type = schema.marks[markName]!;
  return (state, dispatch) => {
    if (!isMarkAllowed(limits, type, isInTable(state.selection.$from))) return false;
    return toggleMark(type)(state, dispatch);
  };
}

/** The selection's text block as the block-type menu names it. */
export function currentTextBlock(state: EditorState): string {
  const { $from } = state.selection;
  // A selection of whole blocks (select all) starts before its first block.
  const parent = $from.parent.isTextblock ? $from.parent : ($from.nodeAfter ?? $from.parent);
  if (parent.type.name === 'heading') return `heading-${String(parent.attrs['level'])}`;
  if (parent.type.name === 'paragraph') return 'paragraph';
  return parent.type.name === 'list_text' ? 'list' : 'text';
}

export function isMarkActive(state: EditorState, markName: string): boolean {
  const type = schema.marks[markName]!;
  const { from, $from, to, empty } = state.selection;
  if (empty) return type.isInSet(state.storedMarks ?? $from.marks()) !== undefined;
  return state.doc.rangeHasMark(from, to, type);
}

function innermostListDepth(state: EditorState): number | null {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth -= 1) {
    const name = $from.node(depth).type.name;
    if (name === 'bullet_list' || name === 'ordered_list') return depth;
  }
  return null;
}

export function activeList(state: EditorState): string | null {
  const depth = innermostListDepth(state);
  return depth === null ? null : state.selection.$from.node(depth).type.name;
}

/**
 * Bulleted / numbered list: wraps the selected paragraphs and headings, switches the kind of
 * the list the selection is in, or (same kind) turns that list back into text.
 */
export function toggleList(limits: RichTextLimits, listName: 'bullet_list' | 'ordered_list'): Command {
  const type = nodes[listName]!;
  return (state, dispatch) => {
    const { $from, $to } = state.selection;
    if (!isBlockAllowed(limits, type.create(), isInTable($from))) return false;
    const listDepth = innermostListDepth(state);
    if (listDepth !== null) {
      const list = $from.node(listDepth);
      if (list.type === type) return unwrapList(state, listDepth, dispatch);
      dispatch?.(state.tr.setNodeMarkup($from.before(listDepth), type, list.attrs));
      return true;
    }
    const range = $from.blockRange($to, (node) => node.type.name === 'doc' || node.type.name === 'table_cell');
    if (range === null) return false;
    const items: Node[] = [];
    for (let i = range.startIndex; i < range.endIndex; i += 1) {
      const child = range.parent.child(i);
      if (!child.isTextblock) return false;
      items.push(nodes['list_item']!.create(null, nodes['list_text']!.create(null, child.content)));
    }
    if (dispatch) {
      const tr = state.tr.replaceWith(range.start, range.end, type.create(null, items));
      // Each block moves inside list + item (2 deeper), and 2 further for every item before it.
      const shift = (pos: number, index: number) => pos + 2 + 2 * (index - range.startIndex);
      const from = shift($from.pos, $from.index(range.depth));
      const to = shift($to.pos, $to.index(range.depth));
      dispatch(tr.setSelection(TextSelection.create(tr.doc, from, to)).scrollIntoView());
    }
    return true;
  };
}

/** Replaces the list at `depth` with its text, one block per item (nested items included). */
function unwrapList(
  state: EditorState,
  depth: number,
  dispatch?: (tr: ReturnType<EditorState['tr']['scrollIntoView']>) => void,
): boolean {
  const { $from } = state.selection;
  const list = $from.node(depth);
  const start = $from.before(depth);
  const isInItem = $from.node(depth - 1).type.name === 'list_item';
  const textType: NodeType = isInItem ? nodes['list_text']! : nodes['paragraph']!;
  const blocks: Node[] = [];
  let cursor = start + 1;
  list.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    const absolute = start + 1 + pos;
    if ($from.pos >= absolute && $from.pos <= absolute + node.nodeSize) {
      cursor = start + blocks.reduce((sum, b) => sum + b.nodeSize, 0) + ($from.pos - absolute);
    }
    blocks.push(textType.create(null, node.content));
    return false;
  });
  if (dispatch) {
    const tr = state.tr.replaceWith(start, start + list.nodeSize, blocks);
    dispatch(
      tr.setSelection(TextSelection.near(tr.doc.resolve(Math.min(cursor, tr.doc.content.size)))).scrollIntoView(),
    );
  }
  return true;
}

const listItem = nodes['list_item']!;

/** Tab in a list: the item becomes a nested item of the one above. */
export const indentListItem: Command = sinkListItem(listItem);

/** Shift-Tab in a nested list: the item moves out one level (a top-level item stays). */
export const outdentListItem: Command = (state, dispatch) => {
  const depth = innermostListDepth(state);
  if (depth === null || state.selection.$from.node(depth - 1).type.name !== 'list_item') return false;
  return liftListItem(listItem)(state, dispatch);
};

export const splitItem: Command = splitListItem(listItem);

/** A table of `rows` × `columns` empty inline cells, where tables are allowed. */
export function insertTable(limits: RichTextLimits, rows = 3, columns = 3): Command {
  return (state, dispatch) => {
    const cell = () => nodes['table_cell']!.create(null, nodes['cell_text']!.create());
    const row = () => nodes['table_row']!.create(null, Array.from({ length: columns }, cell));
    const table = nodes['table']!.create(null, Array.from({ length: rows }, row));
    return insertBlock(limits, table)(state, (tr) => {
      // The cursor goes into the first cell, ready to type. With an image or object selected, the
      // table goes after it and the selection stays on it, so look past the selection's end.
      let cell = -1;
      const from = tr.mapping.map(state.selection.from, -1);
      const to = Math.min(tr.doc.content.size, Math.max(tr.selection.to, from) + table.nodeSize);
      tr.doc.nodesBetween(from, to, (node, pos) => {
        if (cell < 0 && node.type.name === 'table') cell = pos + 4;
        return cell < 0;
      });
      dispatch?.(cell < 0 ? tr : tr.setSelection(TextSelection.create(tr.doc, cell)));
    });
  };
}

/** Places a block (table, image, linked item, component) at the selection, where it is allowed. */
export function insertBlock(limits: RichTextLimits, node: Node): Command {
  return (state, dispatch) => {
    if (!isBlockAllowed(limits, node, isInTable(state.selection.$from))) return false;
    const { selection } = state;
    // With an image or object selected, a new block goes after it (and is selected in turn),
    // rather than replacing it.
    const isAfterBlock = selection instanceof NodeSelection && selection.node.isBlock;
    const tr = isAfterBlock ? state.tr.insert(selection.to, node) : state.tr.replaceSelectionWith(node);
    if (!tr.docChanged) return false;
    if (isAfterBlock && node.isAtom) tr.setSelection(NodeSelection.create(tr.doc, selection.to));
    dispatch?.(tr.scrollIntoView());
    return true;
  };
}

export function figureNode(assetId: string): Node {
  return nodes['figure']!.create({ assetId });
}

export function objectNode(kind: 'item' | 'component', id: string): Node {
  return nodes['object']!.create({ kind, id });
}

/** The link at the selection (its attributes and extent), or null. */
export function linkAt(state: EditorState): { attrs: LinkAttrs; from: number; to: number } | null {
  const type = schema.marks['link']!;
  const { $from } = state.selection;
  const mark = type.isInSet($from.marks()) ?? ($from.nodeAfter ? type.isInSet($from.nodeAfter.marks) : undefined);
  if (mark === undefined) return null;
  const parent = $from.parent;
  const start = $from.start();
  let from = -1;
  let to = -1;
  parent.forEach((child, offset) => {
    const isLinked = mark.isInSet(child.marks);
    const childFrom = start + offset;
    const childTo = childFrom + child.nodeSize;
    if (isLinked && from === -1 && childTo >= $from.pos) from = childFrom;
    if (isLinked && from !== -1 && (to === -1 || to === childFrom)) to = childTo;
  });
  return from === -1 ? null : { attrs: mark.attrs as LinkAttrs, from, to };
}

/**
 * Sets the link of the selection (or of the link the cursor is in). With an empty selection
 * outside a link, inserts `text` linked.
 */
export function setLink(limits: RichTextLimits, attrs: Attrs, text: string): Command {
  const type = schema.marks['link']!;
  return (state, dispatch) => {
    if (!isMarkAllowed(limits, type, isInTable(state.selection.$from))) return false;
    const mark = type.create(attrs);
    const existing = linkAt(state);
    const { from, to, empty } = state.selection;
    const tr = state.tr;
    if (existing !== null && empty)
      tr.removeMark(existing.from, existing.to, type).addMark(existing.from, existing.to, mark);
    else if (!empty) tr.removeMark(from, to, type).addMark(from, to, mark);
    else if (text !== '')
      tr.insert(from, schema.text(text, [mark, ...state.selection.$from.marks().filter((m) => m.type !== type)]));
    else return false;
    dispatch?.(tr.scrollIntoView());
    return true;
  };
}

export const removeLink: Command = (state, dispatch) => {
  const existing = linkAt(state);
  const type = schema.marks['link']!;
  const { from, to, empty } = state.selection;
  if (existing === null && (empty || !state.doc.rangeHasMark(from, to, type))) return false;
  const range = empty && existing !== null ? existing : { from, to };
  dispatch?.(state.tr.removeMark(range.from, range.to, type));
  return true;
};

export const insertHardBreak: Command = (state, dispatch) => {
  dispatch?.(state.tr.replaceSelectionWith(nodes['hard_break']!.create()).scrollIntoView());
  return true;
};
