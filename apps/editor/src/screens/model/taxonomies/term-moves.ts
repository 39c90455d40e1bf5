/*
 * Re-parenting and reordering taxonomy terms, as the taxonomy PATCH dialect's `move` operation
 * (reference §6.2: `reference` the term, one of `before`, `after`, `under`). Pure, so the
 * keyboard's moves and a drop can be checked without a server; the server decides whether a
 * move is allowed (a term under its own descendant is refused there, in its words).
 */

export interface TermNode {
  readonly id: string;
  readonly name: string;
  readonly terms: readonly TermNode[];
}

export type Direction = 'up' | 'down' | 'in' | 'out';

export interface MoveOp {
  readonly op: 'move';
  readonly reference: { readonly id: string };
  readonly before?: { readonly id: string };
  readonly after?: { readonly id: string };
  readonly under?: { readonly id: string };
}

interface Place {
  readonly siblings: readonly TermNode[];
  readonly index: number;
  readonly parent: TermNode | null;
}

/** Where the term with `id` sits: its siblings, its index among them and its parent. */
export function placeOf(terms: readonly TermNode[], id: string, parent: TermNode | null = null): Place | null {
  const index = terms.findIndex((t) => t.id === id);
  if (index >= 0) return { siblings: terms, index, parent };
  for (const t of terms) {
    const found = placeOf(t.terms, id, t);
    if (found) return found;
  }
  return null;
}

/**
 * The move of a term one step in a direction: up or down among its siblings, in (under the
 * sibling above it, as its last child) or out (after its parent). Null when there is nowhere
 * to go (the first term cannot go up or in, a top-level term cannot go out).
 */
export function moveOf(terms: readonly TermNode[], id: string, direction: Direction): MoveOp | null {
  const place = placeOf(terms, id);
  if (!place) return null;
  const reference = { id };
  const previous = place.siblings[place.index - 1];
  const next = place.siblings[place.index + 1];
  switch (direction) {
    case 'up':
      return previous ? { op: 'move', reference, before: { id: previous.id } } : null;
    case 'down':
      return next ? { op: 'move', reference, after: { id: next.id } } : null;
    case 'in':
      return previous ? { op: 'move', reference, under: { id: previous.id } } : null;
    case 'out':
      return place.parent ? { op: 'move', reference, after: { id: place.parent.id } } : null;
  }
}

/** Where on a term a drop lands: its top quarter (before it), its bottom quarter (after it), else under it. */
export type DropPlace = 'before' | 'after' | 'under';

export function dropPlaceAt(offsetY: number, height: number): DropPlace {
  if (offsetY < height / 4) return 'before';
  if (offsetY > (height * 3) / 4) return 'after';
  return 'under';
}

/**
 * The move of a dropped term: onto another term it goes before it, after it or under it (last
 * child); onto the top level (`target` null) after the last top-level term. Null for a drop
 * that changes nothing.
 */
export function dropOf(
  terms: readonly TermNode[],
  id: string,
  target: string | null,
  place: DropPlace = 'under',
): MoveOp | null {
  if (target === id) return null;
  const reference = { id };
  if (target !== null) return { op: 'move', reference, [place]: { id: target } };
  const last = terms[terms.length - 1];
  if (!last || last.id === id) return null;
  return { op: 'move', reference, after: { id: last.id } };
}

/** The direction a key on a term's handle asks for (arrows; Alt+arrows work too). */
export function directionOfKey(key: string): Direction | null {
  return key === 'ArrowUp'
    ? 'up'
    : key === 'ArrowDown'
      ? 'down'
      : key === 'ArrowRight'
        ? 'in'
        : key === 'ArrowLeft'
          ? 'out'
          : null;
}
