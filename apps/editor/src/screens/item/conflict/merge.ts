import type { ElementValue, TypeElement } from '../../../elements/model.ts';

/*
 * The three-way comparison behind the conflict view (issue 31): the version the person started
 * from (`base`), their edits (`mine`) and the version saved meanwhile (`theirs`), element by element.
 */

/** Who changed an element since the base: only them, only me, both (differently), or nobody. */
export type ChangeSide = 'theirs' | 'mine' | 'both' | 'none';

export interface ElementChange {
  readonly element: TypeElement;
  readonly side: ChangeSide;
  readonly base: ElementValue | undefined;
  readonly mine: ElementValue | undefined;
  readonly theirs: ElementValue | undefined;
}

/** JSON with sorted keys: two renderings of one value compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** Whether two values of one element hold the same content (the element reference aside). */
export function isSameValue(a: ElementValue | undefined, b: ElementValue | undefined): boolean {
  const strip = (v: ElementValue | undefined) => {
    if (!v) return null;
    const { element: _e, ...rest } = v;
    return rest;
  };
  return canonical(strip(a)) === canonical(strip(b));
}

/** Each element of the type with the side that changed it; elements with a value only (no guidelines). */
export function compareVersions(input: {
  defs: readonly TypeElement[];
  base: readonly ElementValue[];
  mine: readonly ElementValue[];
  theirs: readonly ElementValue[];
}): ElementChange[] {
  const byId = (list: readonly ElementValue[]) => new Map(list.map((v) => [v.element.id, v]));
  const [base, mine, theirs] = [byId(input.base), byId(input.mine), byId(input.theirs)];
  return input.defs
    .filter((d) => d.type !== 'guidelines')
    .map((element) => {
      const b = base.get(element.id);
      const m = mine.get(element.id);
      const t = theirs.get(element.id);
      const isMine = !isSameValue(b, m);
      const isTheirs = !isSameValue(b, t);
      const side: ChangeSide =
        isMine && isTheirs ? (isSameValue(m, t) ? 'theirs' : 'both') : isMine ? 'mine' : isTheirs ? 'theirs' : 'none';
      return { element, side, base: b, mine: m, theirs: t };
    });
}

/**
 * "Keep both where they don't overlap": their value where only they changed an element, mine
 * where only I did, and for an element both changed the side `choices` names (mine by default).
 */
export function mergeVersions(
  changes: readonly ElementChange[],
  choices: ReadonlyMap<string, 'mine' | 'theirs'>,
): ElementValue[] {
  return changes.flatMap((c) => {
    const pick =
      c.side === 'theirs' || (c.side === 'both' && choices.get(c.element.id) === 'theirs')
        ? c.theirs
        : c.side === 'none'
          ? (c.theirs ?? c.mine)
          : c.mine;
    return pick ? [pick] : [];
  });
}

/** A short readable form of a value for the conflict view (rich text as its text, references counted). */
export function describeValue(value: ElementValue | undefined): string {
  const v = value?.value;
  if (v === null || v === undefined || v === '') return '(empty)';
  if (typeof v === 'string') {
    const text = /<[a-z][\s\S]*>/i.test(v)
      ? v
          .replace(/<[^>]*>/g, ' ')
          .replace(/&nbsp;/g, ' ')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&')
      : v;
    const trimmed = text.replace(/\s+/g, ' ').trim();
    return trimmed === '' ? '(empty)' : trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '(empty)';
    const names = v.map((r: { codename?: string; id?: string }) => r.codename ?? r.id ?? '?');
    return `${v.length} selected: ${names.slice(0, 5).join(', ')}${v.length > 5 ? ', …' : ''}`;
  }
  return JSON.stringify(v).slice(0, 300);
}
