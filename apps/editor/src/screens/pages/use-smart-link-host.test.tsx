// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteRequest } from './smart-link-protocol.ts';
import { useSmartLinkHost } from './use-smart-link-host.ts';

afterEach(cleanup);

function Host(props: {
  origins: string[];
  onRequest: (r: SiteRequest) => void;
  onSend: (s: ReturnType<typeof useSmartLinkHost>) => void;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const host = useSmartLinkHost(frame, props.origins, props.onRequest);
  props.onSend(host);
  return (
    <>
      <iframe ref={frame} title="site" />
      <p>{host.isConnected ? 'connected' : 'waiting'}</p>
    </>
  );
}

function setup() {
  const onRequest = vi.fn();
  let host: ReturnType<typeof useSmartLinkHost> | null = null;
  const view = render(<Host origins={['https://site.example']} onRequest={onRequest} onSend={(h) => (host = h)} />);
  const iframe = view.getByTitle('site') as HTMLIFrameElement;
  const child = { postMessage: vi.fn() };
  Object.defineProperty(iframe, 'contentWindow', { value: child });
  const post = (data: unknown, origin = 'https://site.example', source: unknown = child) =>
    act(() => {
      const event = new MessageEvent('message', { data, origin });
      Object.defineProperty(event, 'source', { value: source });
      window.dispatchEvent(event);
    });
  return { view, onRequest, child, post, host: () => host };
}

const click = {
  type: 'kontent-smart-link:element:clicked',
  data: { projectId: 'p', languageCodename: 'en', itemId: 'i', elementCodename: 'title' },
};

describe('the Smart Link host', () => {
  it('answers the hello with its requestId and the status, to the site origin only', () => {
    const { post, child, view } = setup();
    post({ type: 'kontent-smart-link:initialized', data: { enabled: true }, requestId: 'r1' });
    expect(child.postMessage.mock.calls).toEqual([
      [{ type: 'kontent-smart-link:initialized:response', data: {}, requestId: 'r1' }, 'https://site.example'],
      [{ type: 'kontent-smart-link:status', data: { enabled: true } }, 'https://site.example'],
      [{ type: 'kontent-smart-link:preview:current-url', data: {} }, 'https://site.example'],
    ]);
    expect(view.getByText('connected')).toBeTruthy();
  });

  it('ignores messages from another origin or another window', () => {
    const { post, onRequest, child } = setup();
    post(click, 'https://evil.example');
    post(click, 'https://site.example', {});
    post({ type: 'kontent-smart-link:initialized', requestId: 'r1' }, 'https://evil.example');
    expect(onRequest).not.toHaveBeenCalled();
    expect(child.postMessage).not.toHaveBeenCalled();
  });

  it('hands clicks to the page view, and sends nothing before the site said hello', () => {
    const { post, onRequest, child, host } = setup();
    host()?.send('kontent-smart-link:preview:refresh', {});
    expect(child.postMessage).not.toHaveBeenCalled();
    post(click);
    expect(onRequest.mock.calls[0]?.[0]).toMatchObject({ kind: 'edit', itemId: 'i', elementCodename: 'title' });
  });
});
