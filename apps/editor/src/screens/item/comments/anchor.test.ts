// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { parseRichText } from '../../../rich-text/rich-text-html.ts';
import { anchorOf, findAnchor, textMap } from './anchor.ts';

const doc = (html: string) => parseRichText(html);
const textAt = (html: string, range: { from: number; to: number } | null) =>
  range === null ? null : doc(html).textBetween(range.from, range.to);

/** The document range of the first `quote` in `html`'s text. */
function rangeOf(html: string, quote: string): { from: number; to: number } {
  let found: { from: number; to: number } | null = null;
  doc(html).descendants((node, pos) => {
    const i = node.isText ? (node.text ?? '').indexOf(quote) : -1;
    if (found === null && i >= 0) found = { from: pos + i, to: pos + i + quote.length };
    return found === null;
  });
  if (found === null) throw new Error(`no ${quote}`);
  return found;
}

describe('comment anchors on rich text', () => {
  const original = '<p>The quick brown fox jumps over the lazy dog.</p><p>A brown fox again.</p>';

  it('quotes the selection with context and its offset in the plain text', () => {
    const { from, to } = rangeOf(original, 'brown fox');
    expect(anchorOf(doc(original), from, to)).toEqual({
      quote: 'brown fox',
      prefix: 'The quick ',
      suffix: ' jumps over the lazy dog.\nA brow',
      start: 10,
    });
    expect(textMap(doc(original)).text).toBe('The quick brown fox jumps over the lazy dog.\nA brown fox again.');
  });

  it('finds the selection again after text is inserted before it, and tells two equal quotes apart', () => {
    const { from, to } = rangeOf(original, 'brown fox');
    const anchor = anchorOf(doc(original), from, to)!;
    const edited =
      '<p>New first paragraph.</p><p>Really, the quick <strong>brown fox</strong> jumps over the lazy dog.</p><p>A brown fox again.</p>';
    const found = findAnchor(doc(edited), anchor);
    expect(textAt(edited, found)).toBe('brown fox');
    // The first of the two "brown fox": its context ("quick", "jumps") matches.
    expect(found).toEqual(rangeOf(edited, 'brown fox'));
  });

  it('detaches when the quoted text itself is changed, and refuses an empty selection', () => {
    const { from, to } = rangeOf(original, 'lazy dog');
    const anchor = anchorOf(doc(original), from, to)!;
    expect(findAnchor(doc('<p>The quick brown fox jumps over the sleepy dog.</p>'), anchor)).toBeNull();
    expect(anchorOf(doc(original), from, from)).toBeNull();
  });
});
