import type { AssetJson } from '../api/assets.ts';
import type { RichTextLimits, SizeLimit } from './limits.ts';

/** Image types the Image API can transform ("adjustable" images). */
const adjustableTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function refusesSize(limit: SizeLimit | null, size: number | null): boolean {
  if (limit === null) return false;
  if (size === null) return true;
  if (limit.condition === 'exactly') return size !== limit.value;
  if (limit.condition === 'at_least') return size < limit.value;
  return size > limit.value;
}

function describe(limit: SizeLimit, what: string): string {
  const condition = { at_most: 'at most', exactly: 'exactly', at_least: 'at least' }[limit.condition];
  return `${what} must be ${condition} ${limit.value} px`;
}

/**
 * Why the element refuses this asset as an image in its text (the element's image limits), or
 * null when it accepts it. The Management API checks the same on save.
 */
export function imageRefusal(
  asset: Pick<AssetJson, 'type' | 'size' | 'image_width' | 'image_height'>,
  limits: RichTextLimits,
): string | null {
  if (!asset.type.startsWith('image/')) return 'Not an image';
  if (limits.allowedImageTypes === 'adjustable' && !adjustableTypes.has(asset.type))
    return 'Only adjustable images (JPEG, PNG, GIF, WebP) are allowed';
  if (limits.maximumImageSize !== null && asset.size > limits.maximumImageSize)
    return `Larger than ${Math.round(limits.maximumImageSize / 1024)} KB`;
  if (refusesSize(limits.imageWidthLimit, asset.image_width ?? null) && limits.imageWidthLimit !== null)
    return describe(limits.imageWidthLimit, 'Width');
  if (refusesSize(limits.imageHeightLimit, asset.image_height ?? null) && limits.imageHeightLimit !== null)
    return describe(limits.imageHeightLimit, 'Height');
  return null;
}
