import { describe, expect, it } from 'vitest';
import { LecternError } from '@lectern/errors';
import { parseImageQuery, type OutputFormat } from './image-query.ts';
import { canonicalTransform, resolveTransform, type SourceInfo } from './image-resolve.ts';

const photo: SourceInfo = { width: 640, height: 480, hasAlpha: false };
const clear: SourceInfo = { width: 640, height: 480, hasAlpha: true };

function resolve(query: string, source = photo, format: OutputFormat = 'png') {
  const spec = parseImageQuery(new URLSearchParams(query));
  return resolveTransform({ spec, source, sourceFormat: 'png', format: spec.format ?? format, maxPixels: 1_000_000 });
}

const key = (query: string, source = photo) => {
  const t = resolve(query, source);
  return t && canonicalTransform(t);
};

describe('resolveTransform', () => {
  it('never makes an image larger than its source', () => {
    expect(resolve('w=4096&h=4096&fit=scale')).toBeNull();
    expect(resolve('w=8192&dpr=5')).toBeNull();
    expect(resolve('w=4096&fm=webp')).toMatchObject({ width: 640, height: 480, resize: null });
    expect(resolve('w=320&dpr=5&fm=webp')).toMatchObject({ width: 640, height: 480 });
    expect(resolve('w=1000&h=100&fit=crop')).toMatchObject({ width: 640, height: 100 });
    expect(resolve('w=0.5&h=2000&fit=scale')).toMatchObject({ width: 320, height: 480 });
    expect(resolve('dpr=2')).toBeNull();
    expect(resolve('dpr=0.5')).toMatchObject({ width: 320, height: 240 });
  });

  it('gives one canonical form to queries that make the same image', () => {
    expect(key('w=100&h=50&fit=CLIP&fm=PNG')).toBe(key('fm=png&h=50&w=100'));
    expect(key('w=100&dpr=2')).toBe(key('w=200'));
    expect(key('w=0.5')).toBe(key('w=320'));
    expect(key('fm=jpg&q=50')).toBe(key('fm=jpg&q=50.0001'));
    expect(key('fm=jpg')).toBe(key('fm=jpg&q=85'));
    expect(key('fm=jpg&q=0')).toBe(key('fm=jpg&q=1'));
    expect(key('fm=png8&q=20')).toBe(key('fm=png8'));
    expect(key('w=100&bg=F00', clear)).toBe(key('w=100&bg=%23ffff0000', clear));
    expect(key('w=100&bg=F00')).toBe(key('w=100'));
    expect(key('fm=webp&lossless=1&q=10')).toBe(key('fm=webp&lossless=true'));
    expect(key('w=100')).not.toBe(key('w=101'));
    expect(key('w=100&fm=png')).not.toBe(key('w=100&fm=webp'));
    expect(key('w=100&bg=80ff0000', clear)).not.toBe(key('w=100&bg=ff0000', clear));
  });

  it('refuses an output over the pixel limit', () => {
    const spec = parseImageQuery(new URLSearchParams('fm=webp'));
    const big = { width: 2000, height: 2000, hasAlpha: false };
    expect(() =>
      resolveTransform({ spec, source: big, sourceFormat: 'png', format: 'webp', maxPixels: 1_000_000 }),
    ).toThrow(LecternError);
  });
});
