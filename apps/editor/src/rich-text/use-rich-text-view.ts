import type { Node } from 'prosemirror-model';
import type { EditorState } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { createEditorState } from './editor-state.ts';
import { embedNodeView, type EmbedEntry } from './embed-views.tsx';
import type { RichTextLimits } from './limits.ts';
import { parseRichText, serializeRichText } from './rich-text-html.ts';

export interface RichTextViewOptions {
  readonly mount: RefObject<HTMLDivElement | null>;
  readonly value: string;
  readonly limits: RichTextLimits;
  readonly isReadOnly: boolean;
  /** Attributes of the editable region (id, aria-labelledby, aria-describedby…). */
  readonly attributes: Readonly<Record<string, string>>;
  /** Called after each change of the document, with its HTML. */
  readonly onDocChange: (html: string, doc: Node) => void;
  readonly onLinkShortcut: () => void;
  readonly isComponentKnown: (id: string) => boolean;
}

/**
 * The ProseMirror view behind a rich text element. The document is created from `value` once,
 * and again only when `value` changes to something the editor did not write itself (another
 * person's save arriving, a form reset); the editor's own changes go out through `onDocChange`
 * and never come back in as a reset. Opening a value writes nothing: a value is only sent when
 * the person changes it.
 */
export function useRichTextView(options: RichTextViewOptions) {
  const [view, setView] = useState<EditorView | null>(null);
  const [state, setState] = useState<EditorState | null>(null);
  const [embeds, setEmbeds] = useState<ReadonlyMap<string, EmbedEntry>>(new Map());
  const written = useRef(options.value);
  const latest = useRef(options);
  latest.current = options;

  const register = useCallback((key: string, entry: EmbedEntry | null) => {
    setEmbeds((map) => {
      const next = new Map(map);
      if (entry === null) next.delete(key);
      else next.set(key, entry);
      return next;
    });
  }, []);

  const freshState = useCallback(
    (value: string) =>
      createEditorState({
        doc: parseRichText(value),
        limits: latest.current.limits,
        onLinkShortcut: () => latest.current.onLinkShortcut(),
        isComponentKnown: (id) => latest.current.isComponentKnown(id),
      }),
    [],
  );

  useEffect(() => {
    const mount = latest.current.mount.current;
    if (mount === null) return;
    const nodeView = embedNodeView(register);
    const created: EditorView = new EditorView(mount, {
      state: freshState(written.current),
      editable: () => !latest.current.isReadOnly,
      attributes: { ...latest.current.attributes, class: 'rt-content' },
      nodeViews: { figure: nodeView, object: nodeView },
      dispatchTransaction(tr) {
        const next = created.state.apply(tr);
        created.updateState(next);
        setState(next);
        if (!tr.docChanged) return;
        const html = serializeRichText(next.doc);
        if (html === written.current) return;
        written.current = html;
        latest.current.onDocChange(html, next.doc);
      },
    });
    setView(created);
    setState(created.state);
    return () => {
      created.destroy();
      setView(null);
    };
  }, [register, freshState]);

  useEffect(() => {
    if (view === null || options.value === written.current) return;
    written.current = options.value;
    const next = freshState(options.value);
    view.updateState(next);
    setState(next);
  }, [view, options.value, freshState]);

  useEffect(() => {
    // Re-reads `editable` and the attributes.
    view?.setProps({ attributes: { ...options.attributes, class: 'rt-content' } });
  }, [view, options.isReadOnly, options.attributes]);

  return { view, state, embeds, html: written.current };
}
