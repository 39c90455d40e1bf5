import sharp, { type Sharp } from 'sharp';
import { LecternError } from '@lectern/errors';
import { maxImageSide, type ImageSpec, type Length, type OutputFormat } from './image-query.ts';

/** Source types that Kontent.ai transforms; other files are served as they are. */
const transformableTypes: Record<string, OutputFormat> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

const contentTypes: Record<OutputFormat, string> = {
  gif: 'image/gif',
  png: 'image/png',
  png8: 'image/png',
  jpg: 'image/jpeg',
  pjpg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** The source's own output format, or null when the file is not an image Lectern transforms. */
export function sourceFormatOf(contentType: string): OutputFormat | null {
  return transformableTypes[contentType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? null;
}

/**
 * The output format: `fm` when given; with `auto=format`, WebP for clients that accept it (GIF
 * never becomes WebP, as at Kontent.ai), else `fm`, else the source's format.
 */
export function outputFormatOf(options: { spec: ImageSpec; source: OutputFormat; accept: string }): OutputFormat {
  const { spec, source, accept } = options;
  if (spec.isAutoFormat && source !== 'gif' && /(^|[\s,])image\/webp($|[\s,;])/i.test(accept)) return 'webp';
  return spec.format ?? source;
}

/**
 * True when the spec leaves the source as it is: no geometry, no background, the source's own
 * format, and no quality change (none, 100, or a format without quality). The original bytes are
 * served then: backup tools such as data-ops fetch `<asset url>?q=100` and expect the file.
 */
export function isIdentity(options: { spec: ImageSpec; source: OutputFormat; format: OutputFormat }): boolean {
  const { spec, source, format } = options;
  const isLossy = format === 'jpg' || format === 'pjpg' || format === 'webp' || format === 'avif';
  return (
    spec.width === null &&
    spec.height === null &&
    (spec.dpr === null || spec.dpr === 1) &&
    spec.rect === null &&
    spec.crop === null &&
    spec.background === null &&
    format === source &&
    !spec.isLossless &&
    (spec.quality === null || spec.quality === 100 || !isLossy)
  );
}

function px(l: Length, side: number): number {
  return 'px' in l ? l.px : Math.round(l.fraction * side);
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The output size for a source of `width` × `height`, capped at 8192 a side keeping its shape. */
function targetSize(spec: ImageSpec, source: { width: number; height: number }) {
  const dpr = spec.dpr ?? 1;
  let w = spec.width ? px(spec.width, source.width) * dpr : null;
  let h = spec.height ? px(spec.height, source.height) * dpr : null;
  if (w === null && h === null && dpr === 1) return null;
  const isExact = w !== null && h !== null && (spec.fit === 'scale' || spec.fit === 'crop');
  if (!isExact) {
    const s = Math.min(
      w === null ? Infinity : w / source.width,
      h === null ? Infinity : h / source.height,
      w === null && h === null ? dpr : Infinity,
    );
    w = source.width * s;
    h = source.height * s;
  }
  const k = Math.min(1, maxImageSide / (w as number), maxImageSide / (h as number));
  return {
    width: Math.max(1, Math.round((w as number) * k)),
    height: Math.max(1, Math.round((h as number) * k)),
  };
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
  bw = Math.max(1, Math.round(bw / crop.zoom));
  bh = Math.max(1, Math.round(bh / crop.zoom));
  const clamp = (v: number, max: number) => Math.min(Math.max(0, Math.round(v)), max);
  return {
    left: clamp(crop.x * source.width - bw / 2, source.width - bw),
    top: clamp(crop.y * source.height - bh / 2, source.height - bh),
    width: Math.min(bw, source.width),
    height: Math.min(bh, source.height),
  };
}

/** AVIF encoder effort (0–9, sharp's default 4): 2 makes a cache miss several times faster for slightly larger files. */
const avifEffort = 2;

function encode(image: Sharp, spec: ImageSpec, format: OutputFormat): Sharp {
  const quality = Math.max(1, spec.quality ?? 85);
  switch (format) {
    case 'jpg':
    case 'pjpg':
      return image.jpeg({ quality, progressive: format === 'pjpg' });
    case 'png':
      return image.png();
    case 'png8':
      return image.png({ palette: true });
    case 'gif':
      return image.gif();
    case 'webp':
      return image.webp({ quality, lossless: spec.isLossless });
    case 'avif':
      return image.avif({ quality, lossless: spec.isLossless, effort: avifEffort });
  }
}

export interface TransformedImage {
  body: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Applies the spec to the source bytes: EXIF orientation, `rect` (or the focal-point box), the
 * resize by `fit`, `bg` behind transparent pixels, then the encoder. A source that cannot be
 * decoded is the client's problem to know about (400), never a 5xx.
 */
export async function transformImage(options: {
  source: Buffer;
  spec: ImageSpec;
  format: OutputFormat;
}): Promise<TransformedImage> {
  const { spec, format } = options;
  try {
    const meta = await sharp(options.source, { autoOrient: true }).metadata();
    let size = { width: meta.autoOrient.width, height: meta.autoOrient.height };
    let image = sharp(options.source, { autoOrient: true });
    if (spec.rect) {
      const box = rectBox(spec.rect, size);
      image = image.extract(box);
      size = { width: box.width, height: box.height };
    }
    const target = targetSize(spec, size);
    if (target && spec.fit === 'crop' && spec.crop?.mode === 'focalpoint' && spec.width && spec.height) {
      image = image.extract(focalBox(spec.crop, size, target)).resize({ ...target, fit: 'fill' });
    } else if (target && spec.fit === 'crop' && spec.width && spec.height) {
      const position = spec.crop?.mode === 'smart' ? sharp.strategy.attention : 'centre';
      image = image.resize({ ...target, fit: 'cover', position });
    } else if (target) {
      image = image.resize({ ...target, fit: 'fill' });
    }
    if (spec.background) image = image.flatten({ background: spec.background });
    const { data, info } = await encode(image, spec, format).toBuffer({ resolveWithObject: true });
    return { body: data, contentType: contentTypes[format], width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof LecternError) throw error;
    throw new LecternError('INVALID_QUERY', {
      message: 'The image cannot be transformed: its data cannot be decoded.',
      cause: error,
    });
  }
}
