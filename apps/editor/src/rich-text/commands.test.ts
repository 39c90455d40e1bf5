// @vitest-environment happy-dom
import type { ElementBody } from '@lectern/core';
import { TextSelection, type Command, type EditorState } from 'prosemirror-state';
import { describe, expect, it } from 'vitest';
import { indentListItem, linkAt, outdentListItem, removeLink, setLink, toggleList } from './commands.ts';
import { createEditorState } from './editor-state.ts';
import { readLimits } from './limits.ts';
import { parseRichText, serializeRichText } from './rich-text-html.ts';

const limits = readLimits({ id: 'e1', codename: 'body', type: 'rich_text' } as ElementBody);

/** The state of `html` with the text selected between `from` and `to` (document positions). */
function at(html: string, from: number, to = from): EditorState {
  const state = createEditorState({ doc: parseRichText(html), limits, onLinkShortcut: () => undefined });
  return state.apply(state.tr.setSelection(TextSelection.create(state.doc, from, to)));
}

function apply(state: EditorState, command: Command): { isDone: boolean; html: string; state: EditorState } {
  let next = state;
  const isDone = command(state, (tr) => {
    next = state.apply(tr);
  });
  return { isDone, html: serializeRichText(next.doc), state: next };
}

describe('list commands', () => {
  it('wraps paragraphs into a list, switches its kind, and turns it back into paragraphs', () => {
    const bulleted = apply(at('<p>one</p><p>two</p>', 2, 8), toggleList(limits, 'bullet_list'));
    expect(bulleted.html).toBe('<ul><li>one</li><li>two</li></ul>');
    const numbered = apply(bulleted.state, toggleList(limits, 'ordered_list'));
    expect(numbered.html).toBe('<ol><li>one</li><li>two</li></ol>');
    const back = apply(numbered.state, toggleList(limits, 'ordered_list'));
    expect(back.html).toBe('<p>one</p><p>two</p>');
    expect(back.state.selection.$from.parent.textContent).toBe('one');
  });

  it('indents an item under the one above and outdents it again; a top-level item stays', () => {
    const list = '<ul><li>one</li><li>two</li></ul>';
    const indented = apply(at(list, 11), indentListItem);
    expect(indented.html).toBe('<ul><li>one<ul><li>two</li></ul></li></ul>');
    expect(apply(indented.state, outdentListItem).html).toBe(list);
    expect(apply(at(list, 4), outdentListItem).isDone).toBe(false);
  });

  it('turns a nested list back into lines of its parent item', () => {
    const nested = at('<ul><li>one<ul><li>two</li></ul></li></ul>', 10);
    expect(apply(nested, toggleList(limits, 'bullet_list')).html).toBe('<ul><li>one<br/>two</li></ul>');
  });

  it('wraps the text of a table cell into a list inside the cell', () => {
    const cell = at('<table><tbody><tr><td>a</td></tr></tbody></table>', 5);
    expect(apply(cell, toggleList(limits, 'ordered_list')).html).toBe(
      '<table><tbody><tr><td><ol><li>a</li></ol></td></tr></tbody></table>',
    );
  });
});

describe('link commands', () => {
  it('links the selection, edits the link the cursor is in, and removes it', () => {
    const web = { kind: 'web', target: 'http://a.example', subject: null, isNewWindow: false, title: null };
    const linked = apply(at('<p>see tea</p>', 5, 8), setLink(limits, web, ''));
    expect(linked.html).toBe('<p>see <a href="http://a.example">tea</a></p>');
    const inside = linked.state.apply(linked.state.tr.setSelection(TextSelection.create(linked.state.doc, 6)));
    expect(linkAt(inside)).toMatchObject({ from: 5, to: 8, attrs: { target: 'http://a.example' } });
    const mail = { kind: 'email', target: 'a@b.c', subject: 'Hi', isNewWindow: false, title: null };
    const edited = apply(inside, setLink(limits, mail, ''));
    expect(edited.html).toBe('<p>see <a data-email-address="a@b.c" data-email-subject="Hi">tea</a></p>');
    expect(apply(edited.state, removeLink).html).toBe('<p>see tea</p>');
  });

  it('inserts linked text at an empty selection', () => {
    const phone = { kind: 'phone', target: '+1 555', subject: null, isNewWindow: true, title: 'Call' };
    expect(apply(at('<p>x</p>', 2), setLink(limits, phone, 'call us')).html).toBe(
      '<p>x<a data-phone-number="+1 555" title="Call">call us</a></p>',
    );
  });
});
