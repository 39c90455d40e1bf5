import { describe, expect, it } from 'vitest';
import { assertIfMatch, variantEtag } from './variant-etag.ts';
import { noSchedule, type VariantRecord } from './variant-record.ts';

const record = (elements: VariantRecord['elements'], changes: Partial<VariantRecord> = {}): VariantRecord => ({
  projectId: 'p',
  itemId: 'i',
  languageId: 'l',
  typeId: 't',
  workflowId: 'w',
  stepId: 's',
  lastModified: new Date('2026-11-27T12:00:00.000Z'),
  elements,
  schedule: noSchedule,
  dueDate: null,
  contributors: [],
  note: null,
  published: null,
  ...changes,
});

describe('variant ETags', () => {
  const base = record({ a: { value: 'x', mode: 'custom' }, b: { value: ['1', '2'] } });

  it('is a quoted strong tag that ignores key order (jsonb reorders keys)', () => {
    const reordered = record({ b: { value: ['1', '2'] }, a: { mode: 'custom', value: 'x' } });
    expect(variantEtag(base)).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(variantEtag(reordered)).toBe(variantEtag(base));
  });

  it('changes with every stored part, and string boundaries cannot be shifted', () => {
    const tags = [
      base,
      record({ a: { value: 'y', mode: 'custom' }, b: { value: ['1', '2'] } }),
      record({ a: { value: 'x', mode: 'custom' }, b: { value: ['12'] } }),
      record({ a: { value: 'x', mode: 'custom' }, b: { value: ['1', '2'] } }, { stepId: 's2' }),
      record({ a: { value: 'x', mode: 'custom' }, b: { value: ['1', '2'] } }, { lastModified: new Date(0) }),
      record({ a: { value: 'x', mode: 'custom' }, b: { value: ['1', '2'] } }, { note: 'n' }),
      record({ a: { value: 'x', mode: 'custom' }, b: { value: ['1', '2'] } }, { contributors: [{ id: 'u' }] }),
      record({ a: { value: 'xs1:' }, b: { value: ['1', '2'] } }),
    ].map(variantEtag);
    expect(new Set(tags).size).toBe(tags.length);
    expect(variantEtag(record({ a: { value: ['ab', 'c'] } }))).not.toBe(
      variantEtag(record({ a: { value: ['a', 'bc'] } })),
    );
  });

  it('lets a write through only when If-Match names the current version', () => {
    const tag = variantEtag(base);
    expect(() => assertIfMatch(base, undefined)).not.toThrow();
    expect(() => assertIfMatch(base, tag)).not.toThrow();
    expect(() => assertIfMatch(base, `"other", ${tag}`)).not.toThrow();
    expect(() => assertIfMatch(base, '*')).not.toThrow();
    expect(() => assertIfMatch(base, '"other"')).toThrow(expect.objectContaining({ code: 'VARIANT_CHANGED' }));
    expect(() => assertIfMatch(base, `W/${tag}`)).toThrow(expect.objectContaining({ code: 'VARIANT_CHANGED' }));
    expect(() => assertIfMatch(null, '*')).toThrow(expect.objectContaining({ code: 'VARIANT_CHANGED' }));
  });
});
