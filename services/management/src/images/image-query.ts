import { LecternError } from '@lectern/errors';

/*
 * Kontent.ai's image transformation query on asset URLs (delivery-apis.md §6): `w`, `h`, `dpr`,
 * `fit`, `rect`, `crop=focalpoint|smart` with `fp-x`, `fp-y`, `fp-z`, `bg`, `fm`, `q`,
 * `lossless`, `auto=format`. Parsing is pure: it checks every parameter, lists every problem in
 * one 400, and yields a spec that image-resolve.ts settles against the source into the canonical
 * transform keying the cache.
 * Unknown parameters are ignored, as a CDN does.
 */

/** Largest output side Kontent.ai serves (8192 × 8192). */
export const maxImageSide = 8192;

export type OutputFormat = 'gif' | 'png' | 'png8' | 'jpg' | 'pjpg' | 'webp' | 'avif';

/** A length: whole pixels, or a fraction (0 < f < 1) of the source's side. */
export type Length = { px: number } | { fraction: number };

export interface ImageSpec {
  width: Length | null;
  height: Length | null;
  dpr: number | null;
  fit: 'clip' | 'scale' | 'crop';
  /** `crop=focalpoint` with its point and zoom, or `crop=smart` (entropy/attention crop). */
  crop: { mode: 'focalpoint'; x: number; y: number; zoom: number } | { mode: 'smart' } | null;
  rect: { x: Length; y: Length; width: Length; height: Length } | null;
  /** `bg` as RGB 0–255 and alpha 0–1. */
  background: { r: number; g: number; b: number; alpha: number } | null;
  format: OutputFormat | null;
  quality: number | null;
  isLossless: boolean;
  isAutoFormat: boolean;
}

/** The parameters this parser reads; a query with none of them serves the original file. */
export const transformParams = [
  'w',
  'h',
  'dpr',
  'fit',
  'rect',
  'crop',
  'fp-x',
  'fp-y',
  'fp-z',
  'bg',
  'fm',
  'q',
  'lossless',
  'auto',
] as const;

const formats: readonly OutputFormat[] = ['gif', 'png', 'png8', 'jpg', 'pjpg', 'webp', 'avif'];
const numberPattern = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

class Problems {
  readonly list: string[] = [];
  add(message: string) {
    this.list.push(message);
  }
}

function readNumber(name: string, raw: string, problems: Problems): number | null {
  if (!numberPattern.test(raw)) {
    problems.add(`'${name}' must be a non-negative number, got '${raw}'.`);
    return null;
  }
  return Number(raw);
}

/** Whole pixels 1–8192 (0 allowed when `isZeroAllowed`), or a fraction strictly between 0 and 1. */
function readLength(name: string, raw: string, problems: Problems, isZeroAllowed = false): Length | null {
  const n = readNumber(name, raw, problems);
  if (n === null) return null;
  if (n > 0 && n < 1) return { fraction: n };
  if ((n === 0 && isZeroAllowed) || (Number.isInteger(n) && n >= 1 && n <= maxImageSide)) return { px: n };
  problems.add(`'${name}' must be whole pixels from 1 to ${maxImageSide} or a fraction between 0 and 1, got '${raw}'.`);
  return null;
}

function readRange(name: string, raw: string, range: { min: number; max: number }, problems: Problems) {
  const n = readNumber(name, raw, problems);
  if (n === null) return null;
  if (n < range.min || n > range.max) {
    problems.add(`'${name}' must be from ${range.min} to ${range.max}, got '${raw}'.`);
    return null;
  }
  return n;
}

function readBackground(raw: string, problems: Problems): ImageSpec['background'] {
  const hex = raw.replace(/^#/, '');
  if (!/^[0-9a-fA-F]+$/.test(hex) || ![3, 4, 6, 8].includes(hex.length)) {
    problems.add(`'bg' must be a 3, 4, 6 or 8 digit hex colour (RGB or ARGB), got '${raw}'.`);
    return null;
  }
  const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
  const argb = full.length === 8 ? full : `ff${full}`;
  const byte = (i: number) => parseInt(argb.slice(i, i + 2), 16);
  return { alpha: Math.round((byte(0) / 255) * 1000) / 1000, r: byte(2), g: byte(4), b: byte(6) };
}

function readOne(params: URLSearchParams, name: string, problems: Problems): string | null {
  const all = params.getAll(name);
  if (all.length > 1) problems.add(`'${name}' is given ${all.length} times; give it once.`);
  return all[0] ?? null;
}

function readEnum<T extends string>(name: string, raw: string | null, allowed: readonly T[], problems: Problems) {
  if (raw === null) return null;
  const v = raw.toLowerCase() as T;
  if (allowed.includes(v)) return v;
  problems.add(`'${name}' must be one of ${allowed.join(', ')}, got '${raw}'.`);
  return null;
}

/** True when the query names any transformation parameter. */
export function hasTransformParams(params: URLSearchParams): boolean {
  return transformParams.some((p) => params.has(p));
}

/** Parses the query; throws INVALID_QUERY (400) listing every problem. */
export function parseImageQuery(params: URLSearchParams): ImageSpec {
  const problems = new Problems();
  const get = (name: string) => readOne(params, name, problems);
  const w = get('w');
  const h = get('h');
  const dpr = get('dpr');
  const rect = get('rect');
  const fpx = get('fp-x');
  const fpy = get('fp-y');
  const fpz = get('fp-z');
  const bg = get('bg');
  const q = get('q');
  const lossless = get('lossless');
  const spec: ImageSpec = {
    width: w === null ? null : readLength('w', w, problems),
    height: h === null ? null : readLength('h', h, problems),
    dpr: dpr === null ? null : readRange('dpr', dpr, { min: 0, max: 5 }, problems),
    fit: readEnum('fit', get('fit'), ['clip', 'scale', 'crop'] as const, problems) ?? 'clip',
    crop: null,
    rect: null,
    background: bg === null ? null : readBackground(bg, problems),
    format: readEnum('fm', get('fm'), formats, problems),
    quality: q === null ? null : readRange('q', q, { min: 0, max: 100 }, problems),
    isLossless: false,
    isAutoFormat: readEnum('auto', get('auto'), ['format'] as const, problems) === 'format',
  };
  if (spec.dpr === 0) spec.dpr = null;
  if (rect !== null) {
    const parts = rect.split(',');
    if (parts.length !== 4) problems.add(`'rect' must be x,y,width,height, got '${rect}'.`);
    else {
      const [x, y, rw, rh] = parts.map((p, i) => readLength(`rect[${i}]`, p.trim(), problems, i < 2));
      if (x && y && rw && rh) spec.rect = { x, y, width: rw, height: rh };
    }
  }
  const crop = readEnum('crop', get('crop'), ['focalpoint', 'smart'] as const, problems);
  if (crop === 'smart') spec.crop = { mode: 'smart' };
  if (crop === 'focalpoint') {
    const x = fpx === null ? 0.5 : readRange('fp-x', fpx, { min: 0, max: 1 }, problems);
    const y = fpy === null ? 0.5 : readRange('fp-y', fpy, { min: 0, max: 1 }, problems);
    const zoom = fpz === null ? 1 : readRange('fp-z', fpz, { min: 1, max: 100 }, problems);
    if (x !== null && y !== null && zoom !== null) spec.crop = { mode: 'focalpoint', x, y, zoom };
  } else if (fpx !== null || fpy !== null || fpz !== null) {
    problems.add("'fp-x', 'fp-y' and 'fp-z' need 'crop=focalpoint'.");
  }
  if (crop !== null && spec.fit !== 'crop') problems.add(`'crop=${crop}' needs 'fit=crop'.`);
  if (spec.rect && spec.fit === 'crop') problems.add("'rect' cannot be combined with 'fit=crop'.");
  if (crop === 'smart' && (w === null || h === null)) problems.add("'crop=smart' needs both 'w' and 'h'.");
  if (lossless !== null) {
    const v = readEnum('lossless', lossless, ['1', '0', 'true', 'false'] as const, problems);
    spec.isLossless = v === '1' || v === 'true';
  }
  if (problems.list.length > 0)
    throw new LecternError('INVALID_QUERY', {
      message: `The image transformation is invalid: ${problems.list.join(' ')}`,
    });
  return spec;
}
