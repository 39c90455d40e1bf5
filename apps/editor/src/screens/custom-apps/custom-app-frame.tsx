import { useEffect, useRef } from 'react';
import { answerAppMessage, contextNotification, type AppContext, type PopupDimension } from './custom-app-protocol.ts';

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * A custom app in a sandboxed iframe, answering `@kontent-ai/custom-app-sdk`'s requests with
 * `context`. Messages are taken only from this iframe's window and from the app's own origin
 * (its `source_url`), and answered to that origin only; observers are told when the context
 * changes.
 */
export function CustomAppFrame(props: {
  sourceUrl: string;
  title: string;
  context: AppContext;
  className?: string;
  /** In a pop-up: the app may set its size (set-popup-size-request). */
  onResize?: (size: { width: PopupDimension; height: PopupDimension }) => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const origin = originOf(props.sourceUrl);
  const context = useRef(props.context);
  context.current = props.context;
  const onResize = useRef(props.onResize);
  onResize.current = props.onResize;
  const subscriptions = useRef(new Map<string, string[]>());

  useEffect(() => {
    if (!origin) return;
    const onMessage = (event: MessageEvent) => {
      const own = frame.current?.contentWindow;
      if (!own || event.source !== own || event.origin !== origin) return;
      const answer = answerAppMessage(event.data, context.current, () => crypto.randomUUID(), {
        isPopup: onResize.current !== undefined,
      });
      if (!answer) return;
      if (answer.resize) onResize.current?.(answer.resize);
      if (answer.subscribe) subscriptions.current.set(answer.subscribe.id, answer.subscribe.properties);
      if (answer.unsubscribe) subscriptions.current.delete(answer.unsubscribe);
      own.postMessage(answer.reply, origin);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [origin]);

  const serialized = JSON.stringify(props.context);
  useEffect(() => {
    const own = frame.current?.contentWindow;
    if (!own || !origin) return;
    for (const [id, properties] of subscriptions.current)
      own.postMessage(contextNotification(id, properties, context.current), origin);
  }, [serialized, origin]);

  if (!origin) return <p role="alert">This custom app’s URL is not an http(s) URL: {props.sourceUrl}</p>;
  return (
    <iframe
      ref={frame}
      className={props.className ?? 'custom-app-frame'}
      src={props.sourceUrl}
      title={props.title}
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-downloads"
    />
  );
}
