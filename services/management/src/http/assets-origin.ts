import type { Express, Request } from 'express';
import { normalizePublicUrl, publicOriginOf } from './public-origin.ts';

/*
 * Where asset binaries are served: their own origin, never the Management API's (whose pages
 * include the operator console). Asset `url`s and the Management origin's redirects point here.
 */

/** What a Management app knows of the assets origin. */
export interface AssetsOriginOptions {
  /** The configured public URL of the assets origin (LECTERN_ASSETS_PUBLIC_URL); wins when set. */
  readonly publicUrl?: string | null;
  /** The assets listener's own URL (e.g. `http://127.0.0.1:4406`), when this process runs it. */
  readonly listenerUrl?: string | null;
}

const assetsOriginKey = 'lectern assets origin';

/** The host labels that name the Management API (`app.`: the editor on it), and the one that names the assets origin. */
const managementLabels = ['manage', 'app'];
const assetsLabel = 'assets';

/**
 * The origin of asset binaries, from the first that applies:
 * 1. the configured public URL;
 * 2. the Management origin (configured or the request's) whose host's first label is `manage.` or `app.`:
 *    the same scheme and host with the label `assets.` (host routing, the chart's Ingress);
 * 3. the assets listener's own URL;
 * 4. null: unknown.
 */
export function resolveAssetsOrigin(options: AssetsOriginOptions & { managementOrigin: string | null }): string | null {
  if (options.publicUrl) return normalizePublicUrl(options.publicUrl);
  const relabelled = options.managementOrigin === null ? null : relabel(options.managementOrigin);
  if (relabelled !== null) return relabelled;
  return options.listenerUrl ? normalizePublicUrl(options.listenerUrl) : null;
}

/** `https://assets.example.com[:port]` for `https://manage.example.com[:port][/path]` (or `app.`), else null. */
function relabel(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  const [first, ...rest] = url.hostname.split('.');
  if (first === undefined || !managementLabels.includes(first) || rest.length === 0) return null;
  url.hostname = [assetsLabel, ...rest].join('.');
  return url.origin;
}

/** Stores what the app knows of the assets origin (read by `assetsOriginOf`). */
export function configureAssetsOrigin(app: Express, options: AssetsOriginOptions): void {
  app.set(assetsOriginKey, { publicUrl: options.publicUrl ?? null, listenerUrl: options.listenerUrl ?? null });
}

/**
 * The assets origin as seen by the client of this request. An app built without one (a test that
 * never reads binaries) falls back to its own origin, where no binary is served (404).
 */
export function assetsOriginOf(req: Request): string {
  const known = (req.app.get(assetsOriginKey) as AssetsOriginOptions | undefined) ?? {};
  const own = publicOriginOf(req);
  const listenerUrl = known.listenerUrl ? reachable(known.listenerUrl, own) : known.listenerUrl;
  return resolveAssetsOrigin({ ...known, listenerUrl, managementOrigin: own }) ?? own;
}

/**
 * A listener bound to every address (`0.0.0.0`, `::`) is named by the host the client reached
 * this origin at, with the listener's port: `http://0.0.0.0:4410` is no URL a browser can use.
 */
function reachable(listenerUrl: string, own: string): string {
  const url = new URL(listenerUrl);
  if (url.hostname !== '0.0.0.0' && url.hostname !== '[::]') return listenerUrl;
  url.hostname = new URL(own).hostname;
  return url.origin;
}
