import { describe, expect, it } from 'vitest';
import { contentDispositionOf, isRasterImageType } from './asset-headers.ts';

describe('isRasterImageType', () => {
  it('shows PNG, JPEG, GIF, WebP and AVIF inline, whatever the case or parameters', () => {
    for (const type of ['image/png', 'IMAGE/JPEG', 'image/gif; x=1', 'image/webp', 'image/avif'])
      expect(isRasterImageType(type), type).toBe(true);
  });

  it('never SVG, HTML, script, XML, PDF or an unknown type', () => {
    for (const type of [
      'image/svg+xml',
      'text/html',
      'text/javascript',
      'application/xml',
      'application/pdf',
      'image/x-icon',
      '',
    ])
      expect(isRasterImageType(type), type).toBe(false);
  });
});

describe('contentDispositionOf', () => {
  it('names the file in RFC 5987 form with an ASCII fallback', () => {
    expect(contentDispositionOf({ disposition: 'attachment', fileName: 'x.html' })).toBe(
      `attachment; filename="x.html"; filename*=UTF-8''x.html`,
    );
  });

  it('percent-encodes what is not an attr-char, and cannot be broken out of by quotes', () => {
    const header = contentDispositionOf({ disposition: 'attachment', fileName: `résumé "1" (draft)*'.html` });
    expect(header).toBe(
      `attachment; filename="r_sum_ _1_ (draft)*'.html"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22%20%28draft%29%2A%27.html`,
    );
  });

  it('survives a lone surrogate', () => {
    expect(contentDispositionOf({ disposition: 'inline', fileName: 'a\ud800.png' })).toContain(
      `filename*=UTF-8''a%EF%BF%BD.png`,
    );
  });
});
