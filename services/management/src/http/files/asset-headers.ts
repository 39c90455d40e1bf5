import type { Response } from 'express';

/*
 * The headers every answer of asset bytes carries (docs/assets.md, "Served from their own
 * origin"). Uploaded bytes are the uploader's: the browser must never sniff them into something
 * else, and anything that could run script (HTML, SVG, JavaScript, XML, PDF, …) is a download
 * under a sandboxing policy, never a page of the assets origin.
 */

/**
 * The types shown inline: raster images only, decided from the stored type. SVG is never one of
 * them (it carries script), nor is any type not listed here.
 */
const rasterImageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** A policy that runs nothing and loads nothing: the document gets a unique opaque origin. */
export const sandboxPolicy = "sandbox; default-src 'none'";

/** Whether a Content-Type (parameters and case ignored) names a raster image shown inline. */
export function isRasterImageType(contentType: string): boolean {
  return rasterImageTypes.has(contentType.split(';')[0]?.trim().toLowerCase() ?? '');
}

/** RFC 5987 `attr-char`s stay; every other UTF-8 byte is percent-encoded. */
function extValue(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `inline` or `attachment` with the file name (RFC 6266): `filename*=UTF-8''…` (RFC 5987) for
 * clients that read it, and a plain-ASCII `filename="…"` fallback for those that do not.
 */
export function contentDispositionOf(options: { disposition: 'inline' | 'attachment'; fileName: string }): string {
  const name = options.fileName.toWellFormed();
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${options.disposition}; filename="${fallback}"; filename*=UTF-8''${extValue(name)}`;
}

/**
 * Sets `X-Content-Type-Options: nosniff`, the Content-Type, and the Content-Disposition: inline
 * for raster images, `attachment` for anything else. The sandboxing policy goes on every answer,
 * images included (an image document needs no script), so nothing served here can run.
 */
export function setAssetHeaders(res: Response, options: { contentType: string; fileName: string }): void {
  const isInline = isRasterImageType(options.contentType);
  // Node's own setHeader: Express's `set` would append a charset to text types.
  res.setHeader('content-type', options.contentType);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('content-security-policy', sandboxPolicy);
  res.setHeader(
    'content-disposition',
    contentDispositionOf({ disposition: isInline ? 'inline' : 'attachment', fileName: options.fileName }),
  );
}
