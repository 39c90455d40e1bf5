import { describe, expect, it } from 'vitest';
import { LecternError } from '@lectern/errors';
import { hasTransformParams, parseImageQuery } from './image-query.ts';

const parse = (q: string) => parseImageQuery(new URLSearchParams(q));

function problemOf(q: string): string {
  try {
    parse(q);
  } catch (error) {
    expect(error).toBeInstanceOf(LecternError);
    expect((error as LecternError).code).toBe('INVALID_QUERY');
    return (error as LecternError).message;
  }
  throw new Error(`'${q}' was accepted`);
}

describe('parseImageQuery', () => {
  it('reads a rendition query as Kontent.ai writes it', () => {
    const spec = parse('w=1280&h=1024&fit=clip&rect=2396,169,1280,1024');
    expect(spec).toMatchObject({
      width: { px: 1280 },
      height: { px: 1024 },
      fit: 'clip',
      rect: { x: { px: 2396 }, y: { px: 169 }, width: { px: 1280 }, height: { px: 1024 } },
      format: null,
      isAutoFormat: false,
    });
  });

  it('takes fractions below 1 as parts of the source side', () => {
    expect(parse('w=0.5&rect=0.25,0,0.5,0.75')).toMatchObject({
      width: { fraction: 0.5 },
      rect: { x: { fraction: 0.25 }, y: { px: 0 }, width: { fraction: 0.5 }, height: { fraction: 0.75 } },
    });
  });

  it('reads focal-point crops, formats, quality, lossless, auto and bg', () => {
    const spec = parse(
      'w=300&h=200&fit=crop&crop=focalpoint&fp-x=0.2&fp-y=0.8&fp-z=2&fm=webp&q=60&lossless=true&bg=8f00',
    );
    expect(spec.crop).toEqual({ mode: 'focalpoint', x: 0.2, y: 0.8, zoom: 2 });
    expect(spec).toMatchObject({ format: 'webp', quality: 60, isLossless: true });
    expect(spec.background).toEqual({ alpha: 0.533, r: 255, g: 0, b: 0 });
    expect(parse('auto=format').isAutoFormat).toBe(true);
    expect(parse('bg=00ff00').background).toEqual({ alpha: 1, r: 0, g: 255, b: 0 });
  });

  it('refuses out-of-range and malformed values, naming each problem', () => {
    expect(problemOf('w=8193')).toContain("'w' must be whole pixels from 1 to 8192");
    expect(problemOf('w=0')).toContain("'w'");
    expect(problemOf('h=-3')).toContain("'h' must be a non-negative number");
    expect(problemOf('w=12.5')).toContain("'w'");
    expect(problemOf('dpr=6')).toContain("'dpr' must be from 0 to 5");
    expect(problemOf('q=101')).toContain("'q' must be from 0 to 100");
    expect(problemOf('fit=fill')).toContain("'fit' must be one of clip, scale, crop");
    expect(problemOf('fm=bmp')).toContain("'fm' must be one of");
    expect(problemOf('rect=1,2,3')).toContain("'rect' must be x,y,width,height");
    expect(problemOf('bg=12345')).toContain("'bg' must be a 3, 4, 6 or 8 digit hex colour");
    expect(problemOf('lossless=yes')).toContain("'lossless'");
    expect(problemOf('w=1&w=2')).toContain("'w' is given 2 times");
    const both = problemOf('w=abc&fm=tiff');
    expect(both).toContain("'w'");
    expect(both).toContain("'fm'");
  });

  it('refuses combinations Kontent.ai documents as incompatible', () => {
    expect(problemOf('w=10&h=10&fit=crop&rect=0,0,5,5')).toContain("'rect' cannot be combined with 'fit=crop'");
    expect(problemOf('w=10&h=10&crop=focalpoint')).toContain("needs 'fit=crop'");
    expect(problemOf('fp-x=0.5')).toContain("need 'crop=focalpoint'");
    expect(problemOf('w=10&fit=crop&crop=smart')).toContain("'crop=smart' needs both 'w' and 'h'");
    expect(problemOf('w=10&h=10&fit=crop&crop=focalpoint&fp-x=1.5')).toContain("'fp-x' must be from 0 to 1");
    expect(problemOf('w=10&h=10&fit=crop&crop=focalpoint&fp-z=0.5')).toContain("'fp-z' must be from 1 to 100");
  });

  it('tells transformation queries from others', () => {
    expect(hasTransformParams(new URLSearchParams('w=10'))).toBe(true);
    expect(hasTransformParams(new URLSearchParams('fp-x=0.1'))).toBe(true);
    expect(hasTransformParams(new URLSearchParams('download=1&v=3'))).toBe(false);
  });
});
