import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { itemJson } from '@lectern/core';
import { mapi, request } from '../../api/client.ts';
import { languagesQuery, type Language } from '../../api/project-model.ts';

/*
 * One page of the inventory: the references of `POST /items-with-variant/filter` (50 a page,
 * `x-continuation`), their items and variants from `POST /items-with-variant/bulk-get`, and for
 * each item without a variant in the language, the variant of the first fallback language that
 * has one (Kontent.ai shows such items as "Not translated").
 */

export type Item = ReturnType<typeof itemJson>;

/**
 * The fields of a Management API v2 variant the inventory shows: a subset of core's `VariantJson`
 * (reference §2.3), the workflow ones optional so a row can be built without them.
 */
export interface VariantSummary {
  readonly item: { readonly id: string };
  readonly language: { readonly id: string };
  readonly last_modified: string;
  readonly workflow?: {
    readonly workflow_identifier: { readonly id: string };
    readonly step_identifier: { readonly id: string };
  };
  readonly due_date?: { readonly value: string | null };
  readonly contributors?: readonly { readonly id: string }[];
}

export interface InventoryRow {
  readonly item: Item;
  /** The variant in the chosen language, or null ("Not translated"). */
  readonly variant: VariantSummary | null;
  /** Without a variant: the fallback language that has one, if any. */
  readonly fallback: { readonly language: Language; readonly variant: VariantSummary } | null;
}

export interface InventoryPage {
  readonly rows: readonly InventoryRow[];
  /** The token of the next page, or null on the last one. */
  readonly next: string | null;
}

interface Ref {
  readonly item: { readonly id: string };
  readonly language: { readonly id: string };
}

async function bulkGet(projectId: string, pairs: readonly Ref[]) {
  if (pairs.length === 0) return [];
  const answer = await request<{ data: { item: Item; variant?: VariantSummary }[] }>(
    mapi(projectId, '/items-with-variant/bulk-get'),
    { method: 'POST', body: { variants: pairs } },
  );
  return answer.data.data;
}

/** The fallback languages of `language`, nearest first (a cycle or a missing one ends the chain). */
export function fallbackChain(language: Language, languages: readonly Language[]): Language[] {
  const chain: Language[] = [];
  const seen = new Set([language.id]);
  let next = languages.find((l) => l.id === language.fallback_language.id);
  while (next && !seen.has(next.id)) {
    chain.push(next);
    seen.add(next.id);
    next = languages.find((l) => l.id === next?.fallback_language.id);
  }
  return chain;
}

/** The languages are read again (from the cache) only when some item lacks a variant. */
export async function fetchInventoryPage(input: {
  projectId: string;
  body: unknown;
  continuation: string | null;
  languages: () => Promise<readonly Language[]>;
  signal?: AbortSignal;
}): Promise<InventoryPage> {
  const found = await request<{ variants: Ref[]; pagination: { continuation_token: string | null } }>(
    mapi(input.projectId, '/items-with-variant/filter'),
    {
      method: 'POST',
      body: input.body,
      ...(input.continuation ? { headers: { 'x-continuation': input.continuation } } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    },
  );
  const data = await bulkGet(input.projectId, found.data.variants);
  const rows: InventoryRow[] = data.map((d) => ({ item: d.item, variant: d.variant ?? null, fallback: null }));
  let missing = rows.filter((r) => r.variant === null);
  const languageId = found.data.variants[0]?.language.id;
  if (missing.length > 0 && languageId) {
    const languages = await input.languages();
    const language = languages.find((l) => l.id === languageId);
    for (const fallback of language ? fallbackChain(language, languages) : []) {
      if (missing.length === 0) break;
      const fallbacks = await bulkGet(
        input.projectId,
        missing.map((r) => ({ item: { id: r.item.id }, language: { id: fallback.id } })),
      );
      const byItem = new Map(fallbacks.flatMap((f) => (f.variant ? [[f.item.id, f.variant] as const] : [])));
      missing = missing.filter((row) => {
        const variant = byItem.get(row.item.id);
        if (!variant) return true;
        rows[rows.indexOf(row)] = { ...row, fallback: { language: fallback, variant } };
        return false;
      });
    }
  }
  return { rows, next: found.data.pagination.continuation_token };
}

/** The page as a cached query; the previous page stays shown while the next one loads. */
export function useInventoryPage(input: { projectId: string; body: unknown | null; continuation: string | null }) {
  const queryClient = useQueryClient();
  const { projectId, body, continuation } = input;
  return useQuery({
    queryKey: ['inventory', projectId, body, continuation],
    queryFn: ({ signal }) =>
      fetchInventoryPage({
        projectId,
        body,
        continuation,
        signal,
        languages: () => queryClient.ensureQueryData(languagesQuery(projectId)),
      }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
