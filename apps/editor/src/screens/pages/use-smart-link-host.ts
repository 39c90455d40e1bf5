import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { readSiteMessage, SmartLinkMessage, type SiteRequest } from './smart-link-protocol.ts';

/**
 * The Smart Link host of one preview iframe. A message is taken only when it comes from this
 * iframe's window AND from one of `origins` (the preview URLs' origins): the site is another
 * origin, and any page could post to us. Answers go to the iframe's current origin only.
 * `initialized` is answered at once (then the site shows its edit buttons); the other requests go
 * to `onRequest`. Returns `send` for status, refresh and update messages and whether the SDK has
 * said hello.
 */
export function useSmartLinkHost(
  frame: RefObject<HTMLIFrameElement | null>,
  origins: readonly string[],
  onRequest: (request: SiteRequest, reply: (type: string, data: unknown) => void) => void,
) {
  const [isConnected, setConnected] = useState(false);
  const origin = useRef<string | null>(null);
  const latest = useRef({ origins, onRequest });
  latest.current = { origins, onRequest };

  const send = useCallback(
    (type: string, data: unknown, extra: { metadata?: unknown; requestId?: string } = {}) => {
      const target = frame.current?.contentWindow;
      if (!target || origin.current === null) return;
      target.postMessage({ type, data, ...extra }, origin.current);
    },
    [frame],
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const own = frame.current?.contentWindow;
      if (!own || event.source !== own) return;
      if (!latest.current.origins.includes(event.origin)) return;
      const request = readSiteMessage(event.data);
      if (!request) return;
      origin.current = event.origin;
      if (request.kind === 'initialized') {
        send(SmartLinkMessage.InitializedResponse, {}, { requestId: request.requestId });
        send(SmartLinkMessage.Status, { enabled: true });
        // Where the site is now (it may have been navigated inside the frame).
        send(SmartLinkMessage.PreviewIFrameCurrentUrl, {});
        setConnected(true);
        // The page view re-sends unsaved values: a reloaded site has lost them.
        latest.current.onRequest(request, () => undefined);
        return;
      }
      const requestId = request.kind === 'add-initial' ? request.requestId : undefined;
      latest.current.onRequest(request, (type, data) => send(type, data, requestId ? { requestId } : {}));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frame, send]);

  return { send, isConnected };
}
