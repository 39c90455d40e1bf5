// @vitest-environment happy-dom
import type { ElementBody } from '@lectern/core';
import { TextSelection, type EditorState, type Transaction } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { insertTable, setTextBlock, toggleFormatting, toggleList } from './commands.ts';
import { createEditorState } from './editor-state.ts';
import { readLimits } from './limits.ts';
import { parseRichText, serializeRichText } from './rich-text-html.ts';
import { richTextSchema as schema } from './schema.ts';

const definition = (limits: Record<string, unknown>): ElementBody => ({
  id: 'e0000000-0000-4000-8000-000000000001',
  codename: 'body',
  type: 'rich_text',
  ...limits,
});

/** Paragraphs and level-two headings, bold only; tables allow text, with italic only. */
const limits = readLimits(
  definition({
    allowed_blocks: ['text', 'tables'],
    allowed_text_blocks: ['paragraph', 'heading-two'],
    allowed_formatting: ['unstyled', 'bold'],
    allowed_table_blocks: ['text'],
    allowed_table_text_blocks: ['paragraph'],
    allowed_table_formatting: ['unstyled', 'italic'],
  }),
);

function stateOf(html: string, at = 2): EditorState {
  const state = createEditorState({ doc: parseRichText(html), limits, onLinkShortcut: () => undefined });
  return state.apply(state.tr.setSelection(TextSelection.create(state.doc, at)));
}

function run(state: EditorState, command: (s: EditorState, d: (tr: Transaction) => void) => boolean) {
  let next = state;
  const isDone = command(state, (tr) => {
    next = state.apply(tr);
  });
  return { isDone, html: serializeRichText(next.doc), state: next };
}

let view: EditorView | null = null;
afterEach(() => {
  view?.destroy();
  view = null;
});

describe('rich text limits while typing', () => {
  it('offers only the allowed blocks: a heading 1 or a list cannot be made, a heading 2 can', () => {
    const state = stateOf('<p>Title</p>');
    expect(run(state, setTextBlock(limits, 1)).isDone).toBe(false);
    expect(run(state, toggleList(limits, 'bullet_list')).isDone).toBe(false);
    expect(run(state, toggleList(limits, 'ordered_list')).isDone).toBe(false);
    const made = run(state, setTextBlock(limits, 2));
    expect(made.isDone).toBe(true);
    expect(made.html).toBe('<h2>Title</h2>');
  });

  it('drops any change that would add a refused block, whatever makes it', () => {
    const state = stateOf('<p>Title</p>');
    const forged = state.apply(state.tr.setBlockType(1, 6, schema.nodes['heading']!, { level: 1 }));
    expect(serializeRichText(forged.doc)).toBe('<p>Title</p>');
    const figure = state.apply(state.tr.insert(0, schema.nodes['figure']!.create({ assetId: 'a' })));
    expect(serializeRichText(figure.doc)).toBe('<p>Title</p>');
  });

  it('allows only the allowed formatting, and types plain text into refused formatting', () => {
    const state = stateOf('<p>ab</p>');
    const selected = state.apply(state.tr.setSelection(TextSelection.create(state.doc, 1, 3)));
    expect(run(selected, toggleFormatting(limits, 'em')).isDone).toBe(false);
    expect(run(selected, toggleFormatting(limits, 'code')).isDone).toBe(false);
    expect(run(selected, toggleFormatting(limits, 'strong')).html).toBe('<p><strong>ab</strong></p>');
    // A value saved before the limits changed: typing inside its italic text writes plain text.
    const old = stateOf('<p><em>old</em></p>', 2);
    const typed = old.apply(old.tr.insertText('X'));
    expect(serializeRichText(typed.doc)).toBe('<p><em>o</em>X<em>ld</em></p>');
  });

  it('applies the table limits inside tables', () => {
    const state = stateOf('<p>x</p>', 2);
    const withTable = run(state, insertTable(limits, 1, 1));
    expect(withTable.html).toBe('<p>x</p><table><tbody><tr><td></td></tr></tbody></table>');
    const inCell = withTable.state.apply(withTable.state.tr.setSelection(TextSelection.create(withTable.state.doc, 7)));
    expect(run(inCell, toggleFormatting(limits, 'strong')).isDone).toBe(false);
    expect(run(inCell, toggleFormatting(limits, 'em')).isDone).toBe(true);
    expect(run(inCell, setTextBlock(limits, 2)).isDone).toBe(false);
    expect(run(inCell, insertTable(limits)).isDone).toBe(false);
  });

  it('cleans pasted content: refused formatting removed, refused blocks turned into paragraphs or left out', () => {
    const place = document.createElement('div');
    document.body.append(place);
    view = new EditorView(place, { state: stateOf('<p>x</p>', 2) });
    view.pasteHTML(
      '<h1>Big <em>idea</em></h1><ul><li>one <strong>two</strong></li></ul>' +
        '<figure data-asset-id="5c8f3b5e-7a41-4b2e-9a0f-5d6e7c8b9a01"></figure><h2>Kept</h2>',
    );
    expect(serializeRichText(view.state.doc)).toBe(
      // The first pasted block joins the paragraph pasted into, as in any editor.
      '<p>xBig idea</p><p>one <strong>two</strong></p><h2>Kept</h2>',
    );
  });

  it('reads an element without limitations as allowing everything', () => {
    const open = readLimits(definition({ allowed_blocks: [], allowed_formatting: [], maximum_text_length: null }));
    const state = createEditorState({ doc: parseRichText('<p>a</p>'), limits: open, onLinkShortcut: () => undefined });
    const at = state.apply(state.tr.setSelection(TextSelection.create(state.doc, 1)));
    expect(run(at, setTextBlock(open, 1)).html).toBe('<h1>a</h1>');
    expect(run(at, toggleList(open, 'ordered_list')).html).toBe('<ol><li>a</li></ol>');
    expect(open.maximumTextLength).toBeNull();
  });

  it('drops characters the API cannot store from typed and pasted text', () => {
    const state = stateOf('<p>ab</p>', 2);
    const typed = state.apply(state.tr.insertText('x\u0001y\r\uFFFEz\uD800'));
    expect(serializeRichText(typed.doc)).toBe('<p>axyzb</p>');
  });
});
