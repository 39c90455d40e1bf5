import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/*
 * Changes made elsewhere (the API, another editor) arrive as server-sent events from
 * `/app/api/projects/{id}/changes` (one `change` event per change; `reset` when the server
 * dropped a slow client): the queries they concern are invalidated, so what is shown refetches
 * without a reload. The app frame keeps one stream open per project.
 */

/** What a `change` event carries (the live helper's `ChangeMessage`; the fields read here). */
export interface ProjectChange {
  readonly seq?: number;
  /** `item`, `variant`, `asset`, or a model kind (`content_type`, `language`, …). */
  readonly object_kind?: string;
  readonly operation?: string;
  readonly id?: string | null;
  readonly language?: { readonly id: string; readonly codename: string };
}

type Listener = (change: ProjectChange | null) => void;
const listeners = new Set<Listener>();

/** Calls `listener` on every change of the open project (null: reload everything); returns the unsubscribe. */
export function onProjectChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Kinds that leave the model (types, languages, workflows…) as it was. */
const contentKinds = new Set(['item', 'variant', 'asset', 'asset_folder', 'comment']);

function parse(data: unknown): ProjectChange | null {
  try {
    const value: unknown = JSON.parse(String(data));
    return value && typeof value === 'object' ? (value as ProjectChange) : null;
  } catch {
    return null;
  }
}

/** Keeps the project's change stream open while mounted; invalidations are batched (100 ms). */
export function useLiveProject(projectId: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`/app/api/projects/${encodeURIComponent(projectId)}/changes`);
    let isModelStale = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      void queryClient.invalidateQueries({ queryKey: ['inventory', projectId] });
      if (isModelStale) void queryClient.invalidateQueries({ queryKey: ['model', projectId] });
      isModelStale = false;
    };
    const schedule = () => {
      timer ??= setTimeout(flush, 100);
    };
    const onChange = (event: MessageEvent) => {
      const change = parse(event.data);
      if (!change?.object_kind || !contentKinds.has(change.object_kind)) isModelStale = true;
      for (const listener of listeners) listener(change);
      schedule();
    };
    const onReset = () => {
      isModelStale = true;
      for (const listener of listeners) listener(null);
      schedule();
    };
    source.addEventListener('change', onChange);
    source.addEventListener('reset', onReset);
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [projectId, queryClient]);
}
