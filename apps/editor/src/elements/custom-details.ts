import { api, mapi } from '../api/client.ts';
import type { AssetJson, ItemJson } from './queries.ts';

/*
 * The details the Custom Element API's getAssetDetails / getItemDetails answer (Kontent.ai's
 * documented shapes: camelCase, names as its web app gives them), read from the Management API.
 * At most `maxIds` per request: a custom element cannot make the editor read the whole project.
 */

export const maxIds = 100;

export function assetDetailsOf(a: AssetJson) {
  return {
    id: a.id,
    name: a.title ?? a.file_name,
    title: a.title,
    fileName: a.file_name,
    descriptions: [] as { language: { id: string; codename: string }; description: string }[],
    size: a.size,
    type: a.type,
    url: a.url,
    thumbnailUrl: a.url,
    imageWidth: a.image_width,
    imageHeight: a.image_height,
  };
}

export function itemDetailsOf(i: ItemJson) {
  return {
    id: i.id,
    codename: i.codename,
    name: i.name,
    type: { id: i.type.id },
    collection: i.collection ? { id: i.collection.id } : null,
  };
}

/** The ids a request names: strings, at most `maxIds`, or null when the request is malformed. */
export function idsOf(raw: unknown): string[] | null {
  if (!Array.isArray(raw) || raw.length > maxIds) return null;
  const ids = raw.filter((x): x is string => typeof x === 'string' && x.length <= 100);
  return ids.length === raw.length ? ids : null;
}

/** Details of the assets that exist, in the order asked (missing ones are left out, as in Kontent.ai). */
export async function loadAssetDetails(projectId: string, ids: readonly string[]) {
  const found = await Promise.all(
    ids.map((id) => api<AssetJson>(mapi(projectId, `/assets/${encodeURIComponent(id)}`)).catch(() => null)),
  );
  return found.filter((a): a is AssetJson => a !== null).map(assetDetailsOf);
}

export async function loadItemDetails(projectId: string, ids: readonly string[]) {
  const found = await Promise.all(
    ids.map((id) => api<ItemJson>(mapi(projectId, `/items/${encodeURIComponent(id)}`)).catch(() => null)),
  );
  return found.filter((i): i is ItemJson => i !== null).map(itemDetailsOf);
}
