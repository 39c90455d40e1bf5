import { LecternError } from '@lectern/errors';
import { maxImageSide, type ImageSpec, type Length, type OutputFormat } from './image-query.ts';

/*
 * A parsed query resolved against its source: every length in whole pixels, sizes clamped to the
 * source (never upscaled beyond it, as Kontent.ai's image API does), parameters that change
 * nothing dropped, values in one spelling. Two queries that make the same image resolve to the
 * same transform, whose canonical string keys the cache, so equivalent requests share one blob.
 */

export interface SourceInfo {
  /** Width and height after EXIF orientation. */
  readonly width: number;
  readonly height: number;
  readonly hasAlpha: boolean;
}

export interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export interface ResolvedTransform {
  /** The part of the source cut out first (`rect` or the focal-point box), or null: all of it. */
  readonly extract: Box | null;
  /** The resize after the cut: `fill` stretches to exactly the size, `cover` fills it and crops. */
  readonly resize: {
    readonly width: number;
    readonly height: number;
    readonly fit: 'fill' | 'cover';
    readonly position: 'centre' | 'attention';
  } | null;
  /** `bg` as lowercase hex, `rrggbb` or `aarrggbb` (alpha first, as the query spells it); null when the source has no transparency. */
  readonly background: string | null;
  readonly format: OutputFormat;
  /** Encoder quality, a whole 1–100, for lossy output only. */
  readonly quality: number | null;
  /** Lossless WebP or AVIF. */
  readonly isLossless: boolean;
  /** The output's size. */
  readonly width: number;
  readonly height: number;
}

const defaultQuality = 85;

function px(l: Length, side: number): number {
  return 'px' in l ? l.px : Math.round(l.fraction * side);
}

/**
 * The output size for a source of `width` × `height`, or null when the query asks no size. Never
 * larger than the source: `fit=clip` scales by at most 1; `fit=scale` and `fit=crop` with both
 * sides clamp each side to the source's (so `w=4096&h=4096&fit=scale` is the source's size).
 */
function targetSize(spec: ImageSpec, source: { width: number; height: number }) {
  const dpr = spec.dpr ?? 1;
  const w = spec.width ? px(spec.width, source.width) * dpr : null;
  const h = spec.height ? px(spec.height, source.height) * dpr : null;
  if (w === null && h === null) {
    // `dpr` alone scales the image: down only, as nothing is made larger than its source.
    if (dpr >= 1) return null;
    return { width: Math.max(1, Math.round(source.width * dpr)), height: Math.max(1, Math.round(source.height * dpr)) };
  }
  let width: number;
  let height: number;
  if (w !== null && h !== null && (spec.fit === 'scale' || spec.fit === 'crop')) {
    width = Math.min(w, source.width, maxImageSide);
    height = Math.min(h, source.height, maxImageSide);
  } else {
    const s = Math.min(1, w === null ? Infinity : w / source.width, h === null ? Infinity : h / source.height);
    width = source.width * s;
    height = source.height * s;
  }
  return { width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)) };
}

function rectBox(rect: NonNullable<ImageSpec['rect']>, source: { width: number; height: number }): Box {
  const left = px(rect.x, source.width);
  const top = px(rect.y, source.height);
  const width = Math.min(px(rect.width, source.width), source.width - left);
  const height = Math.min(px(rect.height, source.height), source.height - top);
  if (width < 1 || height < 1)
    throw new LecternError('INVALID_QUERY', {
      message: `The image transformation is invalid: 'rect' lies outside the ${source.width}×${source.height} image.`,
    });
  return { left, top, width, height };
}

/** The largest box of the target's shape, shrunk by the zoom and centred on the focal point. */
function focalBox(
  crop: { x: number; y: number; zoom: number },
  source: { width: number; height: number },
  target: { width: number; height: number },
): Box {
  const aspect = target.width / target.height;
  let bw = source.width / source.height > aspect ? source.height * aspect : source.width;
  let bh = bw / aspect;
  bw = Math.min(source.width, Math.max(1, Math.round(bw / crop.zoom)));
  bh = Math.min(source.height, Math.max(1, Math.round(bh / crop.zoom)));
  const clamp = (v: number, max: number) => Math.min(Math.max(0, Math.round(v)), max);
  return {
    left: clamp(crop.x * source.width - bw / 2, source.width - bw),
    top: clamp(crop.y * source.height - bh / 2, source.height - bh),
    width: bw,
    height: bh,
  };
}

function backgroundHex(bg: NonNullable<ImageSpec['background']>): string {
  const byte = (n: number) => n.toString(16).padStart(2, '0');
  const alpha = Math.round(bg.alpha * 255);
  return `${alpha === 255 ? '' : byte(alpha)}${byte(bg.r)}${byte(bg.g)}${byte(bg.b)}`;
}

function isLossyFormat(format: OutputFormat): boolean {
  return format === 'jpg' || format === 'pjpg' || format === 'webp' || format === 'avif';
}

/**
 * Resolves the spec against the source, or null when the result would be the source as it is
 * (same size, no cut, no background, same format, quality unchanged): the original is served
 * then. Throws IMAGE_TOO_LARGE when the output would exceed `maxPixels`.
 */
export function resolveTransform(options: {
  spec: ImageSpec;
  source: SourceInfo;
  sourceFormat: OutputFormat;
  format: OutputFormat;
  maxPixels: number;
}): ResolvedTransform | null {
  const { spec, source, format } = options;
  let size = { width: source.width, height: source.height };
  let extract: Box | null = null;
  if (spec.rect) {
    const box = rectBox(spec.rect, size);
    if (box.width !== size.width || box.height !== size.height) extract = box;
    size = { width: box.width, height: box.height };
  }
  const target = targetSize(spec, size);
  let resize: ResolvedTransform['resize'] = null;
  if (target && spec.fit === 'crop' && spec.crop?.mode === 'focalpoint' && spec.width && spec.height) {
    const box = focalBox(spec.crop, size, target);
    if (box.width !== size.width || box.height !== size.height) extract = box;
    if (box.width !== target.width || box.height !== target.height)
      resize = { ...target, fit: 'fill', position: 'centre' };
  } else if (target && (target.width !== size.width || target.height !== size.height)) {
    const isCover = spec.fit === 'crop' && spec.width !== null && spec.height !== null;
    const position = isCover && spec.crop?.mode === 'smart' ? 'attention' : 'centre';
    resize = { ...target, fit: isCover ? 'cover' : 'fill', position };
  }
  const output = resize ?? (extract ? { width: extract.width, height: extract.height } : size);
  if (output.width * output.height > options.maxPixels)
    throw new LecternError('IMAGE_TOO_LARGE', {
      message: `The transformed image would have ${output.width}×${output.height} pixels, more than the ${options.maxPixels} allowed.`,
    });
  const isLossless = spec.isLossless && (format === 'webp' || format === 'avif');
  const isLossy = isLossyFormat(format) && !isLossless;
  const background = spec.background && source.hasAlpha ? backgroundHex(spec.background) : null;
  const isSameEncoding =
    format === options.sourceFormat &&
    !isLossless &&
    (!isLossyFormat(format) || spec.quality === null || spec.quality === 100);
  if (!extract && !resize && !background && isSameEncoding) return null;
  return {
    extract,
    resize,
    background,
    format,
    quality: isLossy ? Math.min(100, Math.max(1, Math.round(spec.quality ?? defaultQuality))) : null,
    isLossless,
    width: output.width,
    height: output.height,
  };
}

/** The canonical string of a resolved transform: equal exactly when the output is. Keys the cache and the ETag. */
export function canonicalTransform(t: ResolvedTransform): string {
  const x = t.extract;
  const r = t.resize;
  return [
    `x=${x ? `${x.left},${x.top},${x.width},${x.height}` : ''}`,
    `r=${r ? `${r.width}x${r.height},${r.fit},${r.position}` : ''}`,
    `bg=${t.background ?? ''}`,
    `fm=${t.format}`,
    `q=${t.quality ?? ''}`,
    `ll=${t.isLossless ? 1 : 0}`,
  ].join('&');
}
