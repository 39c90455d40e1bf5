import { useEffect } from 'react';

export const leaveMessage = 'You have unsaved changes. Leave this page and lose them?';

/**
 * While `isDirty`: the browser's `beforeunload` warning (reload, close, typed address), and a
 * confirm before the app goes to another page:
 * - links are intercepted in the capture phase on the document, before wouter's handler: a
 *   declined confirm prevents the default, and wouter leaves prevented clicks alone;
 * - every other in-app navigation (the app frame's language switch, a redirect…) goes through
 *   `history.pushState`/`replaceState`, which are wrapped while the form is dirty: a declined
 *   confirm leaves the history, and so the route, as it was. A link the person already
 *   confirmed is not asked about twice.
 * The browser's back button (popstate) cannot be held; `beforeunload` covers leaving the app.
 */
export function useNavigationGuard(
  isDirty: boolean,
  confirm: (message: string) => boolean = (m) => window.confirm(m),
): void {
  useEffect(() => {
    if (!isDirty) return;
    let isApproved = false;
    const approveOnce = () => {
      isApproved = true;
      setTimeout(() => (isApproved = false), 0);
    };
    const leavesPage = (url: string | URL | null | undefined) => {
      if (url === null || url === undefined) return false;
      const next = new URL(String(url), window.location.href);
      return next.pathname !== window.location.pathname || next.search !== window.location.search;
    };
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
      if (href.origin !== window.location.origin || !leavesPage(href)) return;
      if (confirm(leaveMessage)) approveOnce();
      else {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    const { pushState, replaceState } = window.history;
    const guarded =
      (original: typeof pushState) =>
      (data: unknown, unused: string, url?: string | URL | null): void => {
        if (isApproved || !leavesPage(url) || confirm(leaveMessage)) {
          approveOnce();
          original.call(window.history, data, unused, url);
        }
      };
    window.history.pushState = guarded(pushState);
    window.history.replaceState = guarded(replaceState);
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.history.pushState = pushState;
      window.history.replaceState = replaceState;
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [isDirty, confirm]);
}
