import { describe, expect, it } from 'vitest';
import { dropOf, dropPlaceAt, moveOf, type TermNode } from './term-moves.ts';

const t = (id: string, terms: TermNode[] = []): TermNode => ({ id, name: id, terms });
// coffee ( espresso ( ristretto ), filter ), tea
const tree = [t('coffee', [t('espresso', [t('ristretto')]), t('filter')]), t('tea')];

describe('term moves', () => {
  it('moves among siblings, and not past either end', () => {
    expect(moveOf(tree, 'filter', 'up')).toEqual({
      op: 'move',
      reference: { id: 'filter' },
      before: { id: 'espresso' },
    });
    expect(moveOf(tree, 'coffee', 'down')).toEqual({ op: 'move', reference: { id: 'coffee' }, after: { id: 'tea' } });
    expect(moveOf(tree, 'espresso', 'up')).toBeNull();
    expect(moveOf(tree, 'tea', 'down')).toBeNull();
  });

  it('indents under the sibling above and outdents after the parent', () => {
    expect(moveOf(tree, 'tea', 'in')).toEqual({ op: 'move', reference: { id: 'tea' }, under: { id: 'coffee' } });
    expect(moveOf(tree, 'ristretto', 'out')).toEqual({
      op: 'move',
      reference: { id: 'ristretto' },
      after: { id: 'espresso' },
    });
    expect(moveOf(tree, 'espresso', 'in')).toBeNull();
    expect(moveOf(tree, 'coffee', 'out')).toBeNull();
    expect(moveOf(tree, 'missing', 'up')).toBeNull();
  });

  it('drops under a term, or at the end of the top level', () => {
    expect(dropOf(tree, 'tea', 'filter')).toEqual({ op: 'move', reference: { id: 'tea' }, under: { id: 'filter' } });
    expect(dropOf(tree, 'ristretto', null)).toEqual({
      op: 'move',
      reference: { id: 'ristretto' },
      after: { id: 'tea' },
    });
    expect(dropOf(tree, 'tea', null)).toBeNull();
    expect(dropOf(tree, 'tea', 'tea')).toBeNull();
  });

  it('drops before or after a term by where on its row it lands', () => {
    expect(dropPlaceAt(2, 40)).toBe('before');
    expect(dropPlaceAt(20, 40)).toBe('under');
    expect(dropPlaceAt(38, 40)).toBe('after');
    expect(dropOf(tree, 'tea', 'espresso', 'before')).toEqual({
      op: 'move',
      reference: { id: 'tea' },
      before: { id: 'espresso' },
    });
    expect(dropOf(tree, 'tea', 'filter', 'after')).toEqual({
      op: 'move',
      reference: { id: 'tea' },
      after: { id: 'filter' },
    });
  });
});
