import { describe, expect, it } from 'vitest';
import type { ElementValue, TypeElement } from '../../../elements/model.ts';
import { compareVersions, describeValue, mergeVersions } from './merge.ts';

const defs: TypeElement[] = ['title', 'body', 'summary', 'tags'].map((c) => ({
  id: `id-${c}`,
  codename: c,
  type: c === 'body' ? 'rich_text' : 'text',
  name: c[0]?.toUpperCase() + c.slice(1),
}));
const v = (codename: string, value: unknown): ElementValue => ({ element: { id: `id-${codename}` }, value });
const base = [v('title', 'T0'), v('body', '<p>B0</p>'), v('summary', 'S0'), v('tags', 'G0')];

describe('the three-way comparison of a conflict', () => {
  const mine = [v('title', 'T0'), v('body', '<p>B-mine</p>'), v('summary', 'S-mine'), v('tags', 'G-same')];
  const theirs = [v('title', 'T-theirs'), v('body', '<p>B0</p>'), v('summary', 'S-theirs'), v('tags', 'G-same')];
  const changes = compareVersions({ defs, base, mine, theirs });

  it('tells which side changed each element', () => {
    expect(changes.map((c) => [c.element.codename, c.side])).toEqual([
      ['title', 'theirs'],
      ['body', 'mine'],
      ['summary', 'both'],
      ['tags', 'theirs'], // both made the same change: nothing to choose
    ]);
  });

  it('merges: theirs where only they changed, mine where only I did, the choice where both did', () => {
    const values = (choice: 'mine' | 'theirs') =>
      mergeVersions(changes, new Map([['id-summary', choice]])).map((e) => e.value);
    expect(values('mine')).toEqual(['T-theirs', '<p>B-mine</p>', 'S-mine', 'G-same']);
    expect(values('theirs')).toEqual(['T-theirs', '<p>B-mine</p>', 'S-theirs', 'G-same']);
  });

  it('ignores key order and the element reference when comparing', () => {
    const reordered = { value: 'T0', element: { id: 'id-title' }, mode: undefined } as ElementValue;
    const same = compareVersions({ defs: defs.slice(0, 1), base, mine: [reordered], theirs: base });
    expect(same[0]?.side).toBe('none');
  });

  it('describes values readably', () => {
    expect(describeValue(v('body', '<p>Hello &amp; <strong>world</strong></p>'))).toBe('Hello & world');
    expect(describeValue(v('x', []))).toBe('(empty)');
    expect(describeValue(v('x', [{ codename: 'a' }, { id: 'b' }]))).toBe('2 selected: a, b');
    expect(describeValue(undefined)).toBe('(empty)');
  });
});
