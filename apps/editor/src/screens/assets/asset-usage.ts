/**
 * Where an asset is used, found through the Management API alone.
 *
 * Lectern's store keeps no index of asset references and its DELETE /assets/{id} does not refuse a
 * used asset, so the app looks before it offers "Delete": it pages through the latest variants of
 * every content type that can hold an asset (an asset element, rich text, or a snippet that may
 * hold either) and searches their elements (components included) for the asset's id. The cost
 * grows with the content, so it runs only when the person asks to delete, can be cancelled, and
 * stops at the first few uses. Published versions older than the latest one are not searched.
 */
import { api, mapi, request } from '../../api/client.ts';
import { listAll } from '../../api/assets.ts';

interface TypeJson {
  readonly id: string;
  readonly name: string;
  readonly elements: readonly { readonly type: string }[];
}

interface VariantJson {
  readonly item: { readonly id: string };
  readonly language: { readonly id: string };
  readonly elements: unknown;
}

export interface AssetUse {
  readonly itemId: string;
  readonly languageId: string;
  readonly typeName: string;
}

const holders = new Set(['asset', 'rich_text', 'snippet']);

/** True when a variant's elements reference the asset: `{id}` in a value, or a rich text `data-asset-id`. */
export function elementsUseAsset(elements: unknown, assetId: string): boolean {
  const id = assetId.toLowerCase();
  const visit = (value: unknown): boolean => {
    if (typeof value === 'string')
      return value.toLowerCase() === id || value.toLowerCase().includes(`data-asset-id="${id}"`);
    if (Array.isArray(value)) return value.some(visit);
    if (value && typeof value === 'object')
      return Object.entries(value).some(([key, v]) => key !== 'element' && visit(v));
    return false;
  };
  return visit(elements);
}

export interface UsageSearch {
  readonly onProgress?: (checkedVariants: number) => void;
  readonly signal?: AbortSignal;
  /** Stop after this many uses (default 5). */
  readonly limit?: number;
}

/** The variants (latest versions) that use the asset, at most `limit`. */
export async function findAssetUses(
  projectId: string,
  assetId: string,
  options: UsageSearch = {},
): Promise<AssetUse[]> {
  const limit = options.limit ?? 5;
  const types = await listAll<TypeJson>(mapi(projectId, '/types'), (p: { types: TypeJson[] }) => p.types);
  const uses: AssetUse[] = [];
  let checked = 0;
  for (const type of types) {
    if (!type.elements.some((e) => holders.has(e.type))) continue;
    let token: string | null = null;
    do {
      options.signal?.throwIfAborted();
      const { data }: { data: { variants: VariantJson[]; pagination: { continuation_token: string | null } } } =
        await request(mapi(projectId, `/types/${type.id}/variants`), {
          ...(token ? { headers: { 'x-continuation': token } } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
      for (const v of data.variants) {
        if (elementsUseAsset(v.elements, assetId))
          uses.push({ itemId: v.item.id, languageId: v.language.id, typeName: type.name });
        if (uses.length >= limit) return uses;
      }
      checked += data.variants.length;
      options.onProgress?.(checked);
      token = data.pagination.continuation_token;
    } while (token);
  }
  return uses;
}

/** The item's name, for showing a use (the id when the item cannot be read). */
export async function itemName(projectId: string, itemId: string): Promise<string> {
  try {
    return (await api<{ name: string }>(mapi(projectId, `/items/${itemId}`))).name;
  } catch {
    return itemId;
  }
}
