import { useEffect } from 'react';

export const leaveMessage = 'You have unsaved changes. Leave this page and lose them?';

/**
 * While `isDirty`: the browser's `beforeunload` warning (reload, close, typed address), and a
 * confirm before any in-app link is followed. Links are intercepted in the capture phase on the
 * document, before wouter's handler: a declined confirm prevents the default, and wouter leaves
 * prevented clicks alone, so nothing navigates.
 */
export function useNavigationGuard(
  isDirty: boolean,
  confirm: (message: string) => boolean = (m) => window.confirm(m),
): void {
  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!link || link.getAttribute('target') === '_blank') return;
      const href = new URL((link as HTMLAnchorElement).href, window.location.href);
      if (href.origin !== window.location.origin) return;
      if (href.pathname === window.location.pathname && href.search === window.location.search) return;
      if (!confirm(leaveMessage)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [isDirty, confirm]);
}
