// @vitest-environment happy-dom
import type { ElementBody } from '@lectern/core';
import { TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditorState } from './editor-state.ts';
import { readLimits } from './limits.ts';
import { parseRichText, serializeRichText } from './rich-text-html.ts';

const known = '9a0ba7ab-0b2a-4b35-8c1b-1cbf8d8c1e6f';
const unknown = '1b0ba7ab-0b2a-4b35-8c1b-1cbf8d8c1e6f';
const object = (id: string) =>
  `<object type="application/kenticocloud" data-type="component" data-id="${id}"></object>`;
const limits = readLimits({ id: 'e1', codename: 'body', type: 'rich_text' } as ElementBody);

let view: EditorView | null = null;
afterEach(() => {
  view?.destroy();
  view = null;
});

function viewOf(html: string): EditorView {
  const state = createEditorState({
    doc: parseRichText(html),
    limits,
    onLinkShortcut: () => undefined,
    isComponentKnown: (id) => id === known,
  });
  const place = document.createElement('div');
  document.body.append(place);
  view = new EditorView(place, { state: state.apply(state.tr.setSelection(TextSelection.create(state.doc, 2))) });
  return view;
}

describe('pasted component objects', () => {
  it('come back when the element knows the component and the text no longer places it (cut and paste)', () => {
    const editor = viewOf('<p>x</p>');
    editor.pasteHTML(`<p>a</p>${object(known)}${object(unknown)}`);
    expect(serializeRichText(editor.state.doc)).toBe(`<p>xa</p>${object(known)}`);
  });

  it('are left out when the text already places the component (a copy would place it twice)', () => {
    const editor = viewOf(`<p>x</p>${object(known)}`);
    editor.pasteHTML(`<p>a</p>${object(known)}`);
    expect(serializeRichText(editor.state.doc)).toBe(`<p>xa</p>${object(known)}`);
  });
});
