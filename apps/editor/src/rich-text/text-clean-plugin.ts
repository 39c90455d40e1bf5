import type { Node } from 'prosemirror-model';
import { Plugin, type Transaction } from 'prosemirror-state';

/**
 * Characters the Management API refuses in rich text (its HTML parser reports them: control
 * characters other than tab, line feed and form feed, noncharacters, lone surrogates) and the
 * carriage return, which HTML turns into a line feed. Pasted text may hold them; they go.
 */
const unstorable =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000D\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes unstorable characters from the text a change touched; null when there is none. */
function clean(tr: Transaction, doc: Node, from: number, to: number): Transaction | null {
  const cuts: { from: number; to: number }[] = [];
  doc.nodesBetween(from, Math.min(to, doc.content.size), (node, pos) => {
    if (!node.isText) return true;
    for (const match of (node.text ?? '').matchAll(unstorable))
      cuts.push({ from: pos + match.index, to: pos + match.index + match[0].length });
    return false;
  });
  // Back to front, so earlier positions stay valid.
  for (const cut of cuts.reverse()) tr.delete(cut.from, cut.to);
  return cuts.length > 0 ? tr : null;
}

export function textCleanPlugin(): Plugin {
  return new Plugin({
    appendTransaction(transactions, oldState, newState) {
      if (!transactions.some((tr) => tr.docChanged)) return null;
      const start = oldState.doc.content.findDiffStart(newState.doc.content);
      const end = oldState.doc.content.findDiffEnd(newState.doc.content);
      if (start === null || end === null) return null;
      return clean(newState.tr, newState.doc, start, Math.max(start, end.b));
    },
  });
}
