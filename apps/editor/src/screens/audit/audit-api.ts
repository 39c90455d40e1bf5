import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditEntryJson } from '@lectern/core';
import { request } from '../../api/client.ts';

export type { AuditEntryJson };

export interface AuditPage {
  readonly entries: AuditEntryJson[];
  readonly continuationToken: string | null;
}

/** One page of the project's audit log (100 entries, newest first) for the query and token. */
export function useAuditPage(projectId: string, query: string, token: string | null) {
  return useQuery({
    queryKey: ['audit-log', projectId, query, token],
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: async (): Promise<AuditPage> => {
      const { data } = await request<{
        entries: AuditEntryJson[];
        pagination: { continuation_token: string | null };
      }>(`/v2/projects/${encodeURIComponent(projectId)}/audit-log${query ? `?${query}` : ''}`, {
        ...(token ? { headers: { 'x-continuation': token } } : {}),
      });
      return { entries: data.entries, continuationToken: data.pagination.continuation_token };
    },
  });
}

/** The export's URL (JSON lines, streamed; a plain link: the session cookie goes with it). */
export function auditExportUrl(projectId: string, query: string): string {
  return `/app/api/v2/projects/${encodeURIComponent(projectId)}/audit-log/export${query ? `?${query}` : ''}`;
}
