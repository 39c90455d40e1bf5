import { useEffect, useRef } from 'react';

/**
 * Calls `onChange` when the project's change stream (server-sent events on
 * `/app/api/projects/{id}/changes`) reports a change that concerns `itemId`. The events' exact
 * fields are the live helper's; any event whose data names the item counts, so the check holds
 * whatever the event calls its ids.
 */
export function useItemChanges(projectId: string, itemId: string, onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`/app/api/projects/${encodeURIComponent(projectId)}/changes`, {
      withCredentials: true,
    });
    const onMessage = (event: MessageEvent) => {
      if (typeof event.data === 'string' && event.data.includes(itemId)) latest.current();
    };
    source.addEventListener('message', onMessage);
    // Named events (`event: change`…) reach listeners of their name only.
    for (const name of ['change', 'changes', 'content_item', 'language_variant'])
      source.addEventListener(name, onMessage);
    return () => source.close();
  }, [projectId, itemId]);
}
