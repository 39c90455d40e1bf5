import type { Sharp } from 'sharp';
import { LecternError } from '@lectern/errors';
import type { ImageSpec, OutputFormat } from './image-query.ts';
import type { ResolvedTransform, SourceInfo } from './image-resolve.ts';

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

/** The Content-Type of an output format. */
export function contentTypeOfFormat(format: OutputFormat): string {
  return contentTypes[format];
}

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

/** AVIF encoder effort (0–9, sharp's default 4): 2 makes a cache miss several times faster for slightly larger files. */
const avifEffort = 2;

function encode(image: Sharp, t: ResolvedTransform): Sharp {
  const quality = t.quality ?? 100;
  switch (t.format) {
    case 'jpg':
    case 'pjpg':
      return image.jpeg({ quality, progressive: t.format === 'pjpg' });
    case 'png':
      return image.png();
    case 'png8':
      return image.png({ palette: true });
    case 'gif':
      return image.gif();
    case 'webp':
      return image.webp({ quality, lossless: t.isLossless });
    case 'avif':
      return image.avif({ quality, lossless: t.isLossless, effort: avifEffort });
  }
}

export interface TransformedImage {
  body: Buffer;
  contentType: string;
  width: number;
  height: number;
}

/** `rrggbb` or `aarrggbb` as sharp's colour object. */
function backgroundOf(hex: string): { r: number; g: number; b: number; alpha: number } {
  const byte = (from: number) => parseInt(hex.slice(from, from + 2), 16);
  const rgb = hex.length - 6;
  return { r: byte(rgb), g: byte(rgb + 2), b: byte(rgb + 4), alpha: hex.length === 8 ? byte(0) / 255 : 1 };
}

/** sharp (libvips: about 25 MiB resident and 3 MiB of heap) loads with the first image a server reads. */
const importSharp = () => import('sharp');
let sharpModule: ReturnType<typeof importSharp> | null = null;
const loadSharp = async () => (await (sharpModule ??= importSharp())).default;

function undecodable(error: unknown): LecternError {
  return new LecternError('INVALID_QUERY', {
    message: 'The image cannot be transformed: its data cannot be decoded.',
    cause: error,
  });
}

/**
 * The source's size after EXIF orientation and whether it has transparency, read from its header
 * without decoding it. Throws IMAGE_TOO_LARGE (400) when it has more than `maxPixels` pixels, so
 * the cost of every transformation is bounded before it starts; an undecodable source is a 400.
 */
export async function readSourceInfo(options: { source: Buffer; maxPixels: number }): Promise<SourceInfo> {
  const sharp = await loadSharp();
  let info: SourceInfo;
  try {
    const meta = await sharp(options.source, { autoOrient: true }).metadata();
    info = { width: meta.autoOrient.width, height: meta.autoOrient.height, hasAlpha: meta.hasAlpha };
  } catch (error) {
    throw undecodable(error);
  }
  if (info.width * info.height > options.maxPixels)
    throw new LecternError('IMAGE_TOO_LARGE', {
      message: `The image has ${info.width}×${info.height} pixels, more than the ${options.maxPixels} this server transforms.`,
    });
  return info;
}

/**
 * Applies a resolved transform to the source bytes: EXIF orientation, the cut, the resize, `bg`
 * behind transparent pixels, then the encoder. sharp refuses to decode more than `maxPixels`
 * (a second guard behind `readSourceInfo`). A source that cannot be decoded is a 400, never a 5xx.
 */
export async function transformImage(options: {
  source: Buffer;
  transform: ResolvedTransform;
  maxPixels: number;
}): Promise<TransformedImage> {
  const t = options.transform;
  const sharp = await loadSharp();
  try {
    let image = sharp(options.source, { autoOrient: true, limitInputPixels: options.maxPixels });
    if (t.extract) image = image.extract(t.extract);
    if (t.resize) {
      const { width, height, fit, position } = t.resize;
      image = image.resize({
        width,
        height,
        fit,
        ...(fit === 'cover' ? { position: position === 'attention' ? sharp.strategy.attention : 'centre' } : {}),
      });
    }
    if (t.background) image = image.flatten({ background: backgroundOf(t.background) });
    const { data, info } = await encode(image, t).toBuffer({ resolveWithObject: true });
    return { body: data, contentType: contentTypes[t.format], width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof LecternError) throw error;
    throw undecodable(error);
  }
}
