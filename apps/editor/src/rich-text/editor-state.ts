import { baseKeymap, chainCommands } from 'prosemirror-commands';
import { gapCursor } from 'prosemirror-gapcursor';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import type { Node } from 'prosemirror-model';
import { liftListItem } from 'prosemirror-schema-list';
import { EditorState, TextSelection, type Command, type Plugin } from 'prosemirror-state';
import { goToNextCell, tableEditing } from 'prosemirror-tables';
import {
  indentListItem,
  insertHardBreak,
  outdentListItem,
  setTextBlock,
  splitItem,
  toggleFormatting,
  toggleList,
} from './commands.ts';
import type { RichTextLimits } from './limits.ts';
import { limitsPlugin } from './limits-plugin.ts';
import { richTextSchema as schema } from './schema.ts';
import { textCleanPlugin } from './text-clean-plugin.ts';
import { componentsPlugin } from './components-plugin.ts';

/**
 * Keyboard shortcuts (as in Kontent.ai's and most editors): Mod-b bold, Mod-i italic, Mod-`
 * code, Mod-, subscript, Mod-. superscript, Mod-k link, Mod-Alt-0 paragraph, Mod-Alt-1…6
 * headings, Mod-Shift-7 numbered list, Mod-Shift-8 bulleted list, Tab / Shift-Tab in lists
 * (indent) and tables (next cell), Shift-Enter line break, Mod-z / Mod-Shift-z / Mod-y history.
 * Outside lists and tables Tab leaves the editor, as everywhere on the page.
 */
export function richTextKeymap(limits: RichTextLimits, onLinkShortcut: () => void): Record<string, Command> {
  const keys: Record<string, Command> = {
    'Mod-z': undo,
    'Mod-Shift-z': redo,
    'Mod-y': redo,
    'Mod-b': toggleFormatting(limits, 'strong'),
    'Mod-i': toggleFormatting(limits, 'em'),
    'Mod-`': toggleFormatting(limits, 'code'),
    'Mod-,': toggleFormatting(limits, 'sub'),
    'Mod-.': toggleFormatting(limits, 'sup'),
    'Mod-k': () => {
      onLinkShortcut();
      return true;
    },
    'Mod-Alt-0': setTextBlock(limits, null),
    'Mod-Shift-7': toggleList(limits, 'ordered_list'),
    'Mod-Shift-8': toggleList(limits, 'bullet_list'),
    'Shift-Enter': insertHardBreak,
    Enter: chainCommands(exitEmptyItem, splitItem),
    Tab: chainCommands(indentListItem, goToNextCell(1)),
    'Shift-Tab': chainCommands(outdentListItem, goToNextCell(-1)),
  };
  for (let level = 1; level <= 6; level += 1) keys[`Mod-Alt-${String(level)}`] = setTextBlock(limits, level);
  return keys;
}

/**
 * Enter in an empty list item: a nested item moves out one level; the last item of a top-level
 * list becomes a paragraph after the list (as in every word processor).
 */
const exitEmptyItem: Command = (state, dispatch) => {
  const { $from, empty } = state.selection;
  if (!empty || $from.parent.type.name !== 'list_text' || $from.parent.content.size > 0) return false;
  const itemDepth = $from.depth - 1;
  const listDepth = itemDepth - 1;
  const item = $from.node(itemDepth);
  if (item.childCount !== 1) return false;
  if ($from.node(listDepth - 1).type.name === 'list_item')
    return liftListItem(schema.nodes['list_item']!)(state, dispatch);
  const list = $from.node(listDepth);
  if ($from.index(listDepth) !== list.childCount - 1) return false;
  if (dispatch) {
    const tr = state.tr;
    const paragraph = schema.nodes['paragraph']!.create();
    if (list.childCount === 1) {
      tr.replaceWith($from.before(listDepth), $from.after(listDepth), paragraph);
      tr.setSelection(TextSelection.create(tr.doc, $from.before(listDepth) + 1));
    } else {
      const itemStart = $from.before(itemDepth);
      tr.delete(itemStart, itemStart + item.nodeSize);
      const at = tr.mapping.map($from.after(listDepth));
      tr.insert(at, paragraph);
      tr.setSelection(TextSelection.create(tr.doc, at + 1));
    }
    dispatch(tr.scrollIntoView());
  }
  return true;
};

export function createEditorState(options: {
  readonly doc: Node;
  readonly limits: RichTextLimits;
  readonly onLinkShortcut: () => void;
  /** Whether the element knows a component (its values): pasted objects of others are left out. */
  readonly isComponentKnown?: (id: string) => boolean;
}): EditorState {
  const plugins: Plugin[] = [
    limitsPlugin(options.limits),
    textCleanPlugin(),
    componentsPlugin(options.isComponentKnown ?? (() => false)),
    history(),
    keymap(richTextKeymap(options.limits, options.onLinkShortcut)),
    keymap(baseKeymap),
    // A cursor beside a table, image or object where no text block is (before a leading table…).
    gapCursor(),
    tableEditing(),
  ];
  return EditorState.create({ schema, doc: options.doc, plugins });
}
