import { useEffect, useRef } from 'react';
import { onProjectChange } from '../../api/live.ts';

/**
 * Calls `onChange` when the project's change stream (kept open by the app frame, api/live.ts)
 * reports a change of `itemId` (the item or one of its variants), or was reset (changes may
 * have been missed).
 */
export function useItemChanges(itemId: string, onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(
    () =>
      onProjectChange((change) => {
        if (change === null || change.id === itemId) latest.current();
      }),
    [itemId],
  );
}
