import type { Node } from 'prosemirror-model';

/*
 * Anchoring a comment to a selection of rich text without touching the value: the selection is
 * kept as a text quote with a few characters of context on each side (the W3C Web Annotation
 * `TextQuoteSelector`) and its offset in the element's plain text. Finding it again in any later
 * text looks for the quote and picks the occurrence whose context matches best, nearest the old
 * offset on a tie: text inserted or removed anywhere outside the quote leaves it found; an edit
 * inside the quote detaches the comment (the panel still shows the quote).
 */

export interface TextAnchor {
  readonly quote: string;
  readonly prefix: string;
  readonly suffix: string;
  readonly start: number;
}

/** Characters of context kept on each side (the server takes at most 64). */
const contextChars = 32;

interface Segment {
  readonly start: number;
  readonly pos: number;
  readonly length: number;
}

interface TextMap {
  readonly text: string;
  readonly segments: readonly Segment[];
}

/** The document's plain text (blocks separated by a line break) and where each text node sits. */
export function textMap(doc: Node): TextMap {
  let text = '';
  const segments: Segment[] = [];
  doc.descendants((node, pos) => {
    if (node.isText) {
      segments.push({ start: text.length, pos, length: node.text?.length ?? 0 });
      text += node.text ?? '';
      return false;
    }
    if (node.isBlock && text.length > 0 && !text.endsWith('\n')) text += '\n';
    return true;
  });
  return { text, segments };
}

function offsetOf(map: TextMap, pos: number): number {
  for (const s of map.segments) {
    if (pos < s.pos) return s.start;
    if (pos <= s.pos + s.length) return s.start + (pos - s.pos);
  }
  return map.text.length;
}

function posOf(map: TextMap, offset: number, side: 'start' | 'end'): number {
  for (const s of map.segments) {
    const end = s.start + s.length;
    if (offset < end || (side === 'end' && offset === end)) return s.pos + Math.max(0, offset - s.start);
  }
  const last = map.segments.at(-1);
  return last ? last.pos + last.length : 0;
}

/** The anchor of the selection `from`–`to` of `doc`; null when it holds no text. */
export function anchorOf(doc: Node, from: number, to: number): TextAnchor | null {
  const map = textMap(doc);
  const start = offsetOf(map, from);
  const end = offsetOf(map, to);
  const quote = map.text.slice(start, end);
  if (quote.trim() === '') return null;
  return {
    quote: quote.slice(0, 1_000),
    prefix: map.text.slice(Math.max(0, start - contextChars), start),
    suffix: map.text.slice(end, end + contextChars),
    start,
  };
}

function commonSuffix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** At most this many occurrences of a quote are weighed (a one-letter quote in a long text). */
const maxCandidates = 1_000;

/** Where the anchor's text is in `doc` now (document positions), or null when it is gone. */
export function findAnchor(doc: Node, anchor: TextAnchor): { from: number; to: number } | null {
  if (anchor.quote === '') return null;
  const map = textMap(doc);
  let best: { offset: number; score: number } | null = null;
  for (let i = map.text.indexOf(anchor.quote), n = 0; i >= 0 && n < maxCandidates; n++) {
    const before = map.text.slice(Math.max(0, i - anchor.prefix.length), i);
    const after = map.text.slice(i + anchor.quote.length, i + anchor.quote.length + anchor.suffix.length);
    // Context matched counts most; the distance from the old offset only breaks ties.
    const score =
      commonSuffix(before, anchor.prefix) + commonPrefix(after, anchor.suffix) - Math.abs(i - anchor.start) / 1e9;
    if (best === null || score > best.score) best = { offset: i, score };
    i = map.text.indexOf(anchor.quote, i + 1);
  }
  if (best === null) return null;
  return { from: posOf(map, best.offset, 'start'), to: posOf(map, best.offset + anchor.quote.length, 'end') };
}

const cache = new WeakMap<Node, Map<string, { from: number; to: number } | null>>();

/** `findAnchor`, remembered per document (documents never change) and anchor. */
export function findAnchorCached(doc: Node, anchor: TextAnchor): { from: number; to: number } | null {
  let byAnchor = cache.get(doc);
  if (!byAnchor) cache.set(doc, (byAnchor = new Map()));
  const key = JSON.stringify(anchor);
  if (!byAnchor.has(key)) byAnchor.set(key, findAnchor(doc, anchor));
  return byAnchor.get(key) ?? null;
}
