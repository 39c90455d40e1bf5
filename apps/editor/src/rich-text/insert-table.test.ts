// @vitest-environment happy-dom
import { NodeSelection, TextSelection, type EditorState } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { insertTable } from './commands.ts';
import { createEditorState } from './editor-state.ts';
import { readLimits } from './limits.ts';
import { parseRichText, serializeRichText } from './rich-text-html.ts';

/*
 * Insert table puts the cursor in the new table's first cell, also when an image or object is
 * selected (the table goes after it): typing then fills the cell instead of replacing the
 * selected component (found by the acceptance scenario: a component inserted, then a table, lost
 * the component to the first typed word).
 */

const limits = readLimits({ id: 'e0000000-0000-4000-8000-000000000001', codename: 'body', type: 'rich_text' });
const component =
  '<object type="application/kenticocloud" data-type="component" data-id="9a0ba7ab-0b2a-4b35-8c1b-1cbf8d8c1e6f"></object>';

function typedAfterInsert(state: EditorState): string {
  let next = state;
  expect(insertTable(limits, 1, 2)(state, (tr) => (next = state.apply(tr)))).toBe(true);
  return serializeRichText(next.apply(next.tr.insertText('Day')).doc);
}

describe('Insert table', () => {
  it('puts the cursor in the first cell after a selected component, which stays', () => {
    const state = createEditorState({
      doc: parseRichText(`<p>a</p>${component}`),
      limits,
      onLinkShortcut: () => undefined,
    });
    const selected = state.apply(state.tr.setSelection(NodeSelection.create(state.doc, 3)));
    expect(typedAfterInsert(selected)).toBe(
      `<p>a</p>${component}<table><tbody><tr><td>Day</td><td></td></tr></tbody></table>`,
    );
  });

  it('puts the cursor in the first cell when inserted at a text cursor', () => {
    const state = createEditorState({ doc: parseRichText('<p>a</p>'), limits, onLinkShortcut: () => undefined });
    const at = state.apply(state.tr.setSelection(TextSelection.create(state.doc, 2)));
    expect(typedAfterInsert(at)).toBe('<p>a</p><table><tbody><tr><td>Day</td><td></td></tr></tbody></table>');
  });
});
