import { describe, expect, it } from 'vitest';
import { imageSize } from './image-size.ts';
import { tinyPng } from './tiny-png.ts';

describe('imageSize', () => {
  it('reads a PNG, a GIF and a JPEG header, and nothing else', () => {
    expect(imageSize(tinyPng({ width: 16, height: 12 }))).toEqual({ width: 16, height: 12 });
    const gif = Buffer.from('GIF89a\x20\x00\x10\x00\x00\x00\x00', 'latin1');
    expect(imageSize(gif)).toEqual({ width: 32, height: 16 });
    // SOI, an APP0 segment of 16 bytes, then SOF0: precision 8, height 300, width 400.
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.alloc(14),
      Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x01, 0x90, 0x03]),
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 400, height: 300 });
    expect(imageSize(Buffer.from('not an image'))).toBeNull();
  });
});
