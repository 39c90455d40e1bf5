import type { ElementBody } from '@lectern/core';
import { describe, expect, it } from 'vitest';
import { imageRefusal } from './image-limits.ts';
import { readLimits } from './limits.ts';

const limitsOf = (limits: Record<string, unknown>) =>
  readLimits({ id: 'e1', codename: 'body', type: 'rich_text', ...limits } as ElementBody);
const png = { type: 'image/png', size: 50_000, image_width: 800, image_height: 600 };

describe('image limits of a rich text element', () => {
  it('accepts any image without limits, and refuses what is not an image', () => {
    expect(imageRefusal(png, limitsOf({}))).toBeNull();
    expect(imageRefusal({ ...png, type: 'application/pdf', image_width: null, image_height: null }, limitsOf({}))).toBe(
      'Not an image',
    );
  });

  it('refuses images over the size, outside the width and height conditions, or not adjustable', () => {
    expect(imageRefusal(png, limitsOf({ maximum_image_size: 40_000 }))).toBe('Larger than 39 KB');
    expect(imageRefusal(png, limitsOf({ image_width_limit: { value: 640, condition: 'at_most' } }))).toBe(
      'Width must be at most 640 px',
    );
    expect(imageRefusal(png, limitsOf({ image_height_limit: { value: 600, condition: 'exactly' } }))).toBeNull();
    expect(imageRefusal(png, limitsOf({ image_height_limit: { value: 700, condition: 'at_least' } }))).toBe(
      'Height must be at least 700 px',
    );
    expect(imageRefusal({ ...png, type: 'image/svg+xml' }, limitsOf({ allowed_image_types: 'adjustable' }))).toBe(
      'Only adjustable images (JPEG, PNG, GIF, WebP) are allowed',
    );
  });
});
