import { useQuery } from '@tanstack/react-query';
import { api, mapi, request } from '../../api/client.ts';
import type { VariantJson } from '../../elements/model.ts';

export interface LanguageJson {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly is_default: boolean;
  readonly is_active: boolean;
  readonly fallback_language?: { readonly id: string };
}

/** Every language of the project (pages followed). */
export function useLanguages(projectId: string) {
  return useQuery({
    queryKey: ['mapi', projectId, 'languages'],
    queryFn: async () => {
      const out: LanguageJson[] = [];
      let token: string | null = null;
      do {
        const page: { data: { languages: LanguageJson[]; pagination: { continuation_token: string | null } } } =
          await request(mapi(projectId, '/languages'), token ? { headers: { 'x-continuation': token } } : {});
        out.push(...page.data.languages);
        token = page.data.pagination.continuation_token;
      } while (token);
      return out;
    },
  });
}

/** Every language variant of an item (`GET /items/{id}/variants`). */
export function variantsKey(projectId: string, itemId: string) {
  return ['mapi', projectId, 'variants', itemId] as const;
}

export function useVariants(projectId: string, itemId: string) {
  return useQuery({
    queryKey: variantsKey(projectId, itemId),
    queryFn: () => api<VariantJson[]>(mapi(projectId, `/items/${itemId}/variants`)),
  });
}
