import { useQuery, type QueryClient } from '@tanstack/react-query';
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

/**
 * `PUT …/variants/{lang}` with `If-Match: etag` when there is one; the saved version and its new
 * ETag go into the caches (this variant's and the item's list).
 */
export async function putVariantVersion(
  client: QueryClient,
  input: { projectId: string; itemId: string; languageId: string; elements: unknown; etag: string | null },
): Promise<VariantJson> {
  const { projectId, itemId, languageId } = input;
  const response = await request<VariantJson>(mapi(projectId, `/items/${itemId}/variants/${languageId}`), {
    method: 'PUT',
    body: { elements: input.elements },
    headers: input.etag ? { 'if-match': input.etag } : {},
  });
  const saved = response.data;
  const stored: VariantVersion = { variant: saved, etag: response.headers.get('etag') };
  client.setQueryData(variantVersionKey(projectId, itemId, languageId), stored);
  client.setQueryData<VariantJson[]>(variantsKey(projectId, itemId), (list) => [
    ...(list ?? []).filter((v) => v.language.id !== saved.language.id),
    saved,
  ]);
  return saved;
}
