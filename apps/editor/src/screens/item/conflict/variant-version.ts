import { useQuery } from '@tanstack/react-query';
import { ApiError, mapi, request } from '../../../api/client.ts';
import type { VariantJson } from '../../../elements/model.ts';
import { variantsKey } from '../queries.ts';

/** A variant with the ETag of that version (`GET …/variants/{lang}` answers both at once). */
export interface VariantVersion {
  readonly variant: VariantJson;
  readonly etag: string | null;
}

/** Under `variantsKey`, so whatever refreshes an item's variants refreshes this too. */
export function variantVersionKey(projectId: string, itemId: string, languageId: string) {
  return [...variantsKey(projectId, itemId), 'version', languageId] as const;
}

/** The variant and its ETag; null when the language has no variant yet. */
export async function fetchVariantVersion(
  projectId: string,
  itemId: string,
  languageId: string,
): Promise<VariantVersion | null> {
  try {
    const r = await request<VariantJson>(mapi(projectId, `/items/${itemId}/variants/${languageId}`));
    return { variant: r.data, etag: r.headers.get('etag') };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export function useVariantVersion(projectId: string, itemId: string, languageId: string | undefined) {
  return useQuery({
    queryKey: variantVersionKey(projectId, itemId, languageId ?? ''),
    queryFn: () => fetchVariantVersion(projectId, itemId, languageId ?? ''),
    enabled: languageId !== undefined,
  });
}
