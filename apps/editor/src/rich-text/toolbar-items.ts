import { redo, undo } from 'prosemirror-history';
import type { Node } from 'prosemirror-model';
import type { Command, EditorState } from 'prosemirror-state';
import { addColumnAfter, addRowAfter, deleteColumn, deleteRow, deleteTable, isInTable } from 'prosemirror-tables';
import type { EditorView } from 'prosemirror-view';
import {
  activeList,
  currentTextBlock,
  figureNode,
  insertBlock,
  insertTable,
  isMarkActive,
  isTextBlockAllowed,
  linkAt,
  objectNode,
  setLink,
  setTextBlock,
  toggleFormatting,
  toggleList,
} from './commands.ts';
import type { RichTextLimits } from './limits.ts';
import type { BlockChoice, ToolbarButton } from './toolbar.tsx';

export type Dialog = 'link' | 'image' | 'item' | 'component';

export interface ToolbarContext {
  readonly state: EditorState | null;
  readonly view: EditorView | null;
  readonly limits: RichTextLimits;
  readonly isReadOnly: boolean;
  readonly openDialog: (dialog: Dialog) => void;
}

/** Runs a command on the view; the text keeps the focus it had. */
function runCommand(view: EditorView | null, command: Command): void {
  if (view === null) return;
  command(view.state, view.dispatch);
  if (!view.hasFocus() && document.activeElement === document.body) view.focus();
}

/**
 * The toolbar's buttons for the selection: each enabled only when its command would do
 * something the element's limits allow there, toggles pressed when on.
 */
export function toolbarGroups({ state, view, limits, isReadOnly, openDialog }: ToolbarContext): ToolbarButton[][] {
  const setDialog = openDialog;
  const run = (command: Command) => runCommand(view, command);
  const can = (command: Command) => (state !== null && !isReadOnly ? command(state) : false);
  const tool = (key: string, label: string, text: string, command: Command, extra: Partial<ToolbarButton> = {}) => ({
    key,
    label,
    text,
    isEnabled: can(command),
    onRun: () => run(command),
    ...extra,
  });
  const mark = (name: string, label: string, text: string, shortcut: string) =>
    tool(name, label, text, toggleFormatting(limits, name), {
      shortcut,
      isPressed: state !== null && isMarkActive(state, name),
    });
  const list = state === null ? null : activeList(state);
  const inTable = state !== null && isInTable(state);
  const link = state === null ? null : linkAt(state);
  const linkAllowed = state !== null && can(setLink(limits, { kind: 'web', target: 'x' }, 'x'));
  const canPlace = (node: Node) => can(insertBlock(limits, node));
  const blocksAllow = (name: string) => limits.blocks.has(name);

  return [
    [
      mark('strong', 'Bold', 'B', 'Ctrl+B'),
      mark('em', 'Italic', 'I', 'Ctrl+I'),
      mark('code', 'Code', '</>', 'Ctrl+`'),
      mark('sub', 'Subscript', 'Sub', 'Ctrl+,'),
      mark('sup', 'Superscript', 'Sup', 'Ctrl+.'),
    ],
    [
      tool('ul', 'Bulleted list', '• List', toggleList(limits, 'bullet_list'), {
        isPressed: list === 'bullet_list',
        shortcut: 'Ctrl+Shift+8',
      }),
      tool('ol', 'Numbered list', '1. List', toggleList(limits, 'ordered_list'), {
        isPressed: list === 'ordered_list',
        shortcut: 'Ctrl+Shift+7',
      }),
    ],
    [
      {
        key: 'link',
        label: link === null ? 'Insert link' : 'Edit link',
        text: 'Link',
        shortcut: 'Ctrl+K',
        isEnabled: linkAllowed || link !== null,
        isPressed: link !== null,
        onRun: () => setDialog('link'),
      },
    ],
    [
      // Inserting a table moves the focus into its first cell, ready to type (the toolbar's
      // other buttons keep the focus, as the WAI-ARIA toolbar pattern has it).
      tool('table', 'Insert table', 'Table', insertTable(limits), {
        onRun: () => {
          run(insertTable(limits));
          view?.focus();
        },
      }),
      tool('row', 'Add row below', '+ Row', addRowAfter, { isEnabled: inTable && can(addRowAfter) }),
      tool('column', 'Add column right', '+ Column', addColumnAfter, { isEnabled: inTable && can(addColumnAfter) }),
      tool('delete-row', 'Delete row', '− Row', deleteRow, { isEnabled: inTable && can(deleteRow) }),
      tool('delete-column', 'Delete column', '− Column', deleteColumn, { isEnabled: inTable && can(deleteColumn) }),
      tool('delete-table', 'Delete table', '× Table', deleteTable, { isEnabled: inTable && can(deleteTable) }),
    ],
    [
      {
        key: 'image',
        label: 'Insert image',
        text: 'Image',
        isEnabled: !isReadOnly && canPlace(figureNode('probe')),
        onRun: () => setDialog('image'),
      },
      {
        key: 'item',
        label: 'Insert existing content item',
        text: 'Item',
        isEnabled: !isReadOnly && blocksAllow('components-and-items') && canPlace(objectNode('item', 'probe')),
        onRun: () => setDialog('item'),
      },
      {
        key: 'component',
        label: 'Insert new component',
        text: 'Component',
        isEnabled: !isReadOnly && blocksAllow('components-and-items') && canPlace(objectNode('component', 'probe')),
        onRun: () => setDialog('component'),
      },
    ],
    [
      tool('undo', 'Undo', 'Undo', undo, { shortcut: 'Ctrl+Z' }),
      tool('redo', 'Redo', 'Redo', redo, { shortcut: 'Ctrl+Shift+Z' }),
    ],
  ];
}

/** The text style menu: paragraph and headings, those the limits refuse here disabled. */
export function blockMenu({ state, view, limits, isReadOnly }: ToolbarContext): {
  value: string;
  choices: BlockChoice[];
  onChoose: (value: string) => void;
} {
  const blockValue = state === null ? 'paragraph' : currentTextBlock(state);
  const choices = [null, 1, 2, 3, 4, 5, 6].map((level) => ({
    value: level === null ? 'paragraph' : `heading-${String(level)}`,
    label: level === null ? 'Paragraph' : `Heading ${String(level)}`,
    isEnabled: state !== null && !isReadOnly && isTextBlockAllowed(state, limits, level),
  }));

  return {
    value: blockValue === 'paragraph' || blockValue.startsWith('heading-') ? blockValue : '',
    choices,
    onChoose: (value) => runCommand(view, setTextBlock(limits, value === 'paragraph' ? null : Number(value.slice(8)))),
  };
}
