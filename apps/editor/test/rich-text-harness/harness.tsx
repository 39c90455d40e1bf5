/*
 * A page for the rich text editor's Chromium tests (rich-text.browser.test.ts), served by Vite's
 * dev server: one RichTextElement with the limits and value of the URL's query, a stand-in
 * /app/api answering the few reads the element makes (types, one item, one asset), and
 * `window.rtHarness` for the test: the round trip in this browser's own HTML parser and the
 * changes the element reported.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '../../src/styles/base.css';
import { RichTextElement, type RichTextComponent } from '../../src/rich-text/rich-text-element.tsx';
import { parseRichText, serializeRichText } from '../../src/rich-text/rich-text-html.ts';

export const quoteType = { id: '7f1e0000-0000-4000-8000-000000000001', name: 'Quote', codename: 'quote', elements: [] };
export const item = {
  id: '6a0ba7ab-0b2a-4b35-8c1b-1cbf8d8c1e6f',
  name: 'Green tea',
  codename: 'green_tea',
  type: { id: '7f1e0000-0000-4000-8000-000000000002' },
};
export const asset = {
  id: '2c8f3b5e-7a41-4b2e-9a0f-5d6e7c8b9a01',
  file_name: 'tea.svg',
  title: 'A cup of tea',
  type: 'image/svg+xml',
  size: 400,
  image_width: 640,
  image_height: 200,
  url: new URL('./tea.svg', import.meta.url).pathname,
};

const answers: Record<string, unknown> = {
  'GET /types': { types: [quoteType], pagination: { continuation_token: null } },
  [`GET /items/${item.id}`]: item,
  [`GET /assets/${asset.id}`]: asset,
  'GET /assets': { assets: [asset], pagination: { continuation_token: null } },
  'GET /folders': { folders: [] },
  'POST /items-with-variant/filter': {
    variants: [{ item: { id: item.id }, language: { id: '0' } }],
    pagination: { continuation_token: null },
  },
  'POST /items-with-variant/bulk-get': { data: [{ item }], pagination: { continuation_token: null } },
};

window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const path = new URL(String(input), location.href).pathname.replace(/^\/app\/api\/v2\/projects\/[^/]+/, '');
  const answer = answers[`${init?.method ?? 'GET'} ${path}`];
  return new Response(JSON.stringify(answer ?? { message: `No ${path}` }), {
    status: answer === undefined ? 404 : 200,
    headers: { 'content-type': 'application/json' },
  });
};

const query = new URLSearchParams(location.search);
const element = {
  id: 'e1',
  codename: 'body',
  type: 'rich_text' as const,
  name: 'Body',
  ...JSON.parse(query.get('limits') ?? '{}'),
};
const changes: { value: string; components: RichTextComponent[] }[] = [];

declare global {
  interface Window {
    rtHarness: {
      roundTrip: (html: string) => string;
      /** Milliseconds to open (parse) and to save (serialise) the value, for measurements. */
      timings: (html: string) => { parse: number; serialize: number };
      changes: typeof changes;
    };
  }
}
window.rtHarness = {
  roundTrip: (html) => serializeRichText(parseRichText(html)),
  timings: (html) => {
    const t0 = performance.now();
    const doc = parseRichText(html);
    const t1 = performance.now();
    serializeRichText(doc);
    return { parse: t1 - t0, serialize: performance.now() - t1 };
  },
  changes,
};

function Harness() {
  const [state, setState] = useState({
    value: query.get('value') ?? '<p><br/></p>',
    components: JSON.parse(query.get('components') ?? '[]') as RichTextComponent[],
  });
  return (
    <>
      <h1>Rich text</h1>
      <label>
        Before <input id="before" />
      </label>
      <RichTextElement
        id="body"
        label="Body"
        element={element}
        value={state.value}
        components={state.components}
        isReadOnly={query.get('readOnly') === '1'}
        projectId="p1"
        onChange={(next) => {
          changes.push(next);
          setState(next);
        }}
        renderComponent={(component, onChange) => (
          <label>
            Quote text{' '}
            <input
              value={String((component.elements[0] as { value?: string } | undefined)?.value ?? '')}
              onChange={(e) => onChange({ ...component, elements: [{ element: { id: 'q1' }, value: e.target.value }] })}
            />
          </label>
        )}
      />
    </>
  );
}

const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <Harness />
    </QueryClientProvider>
  </StrictMode>,
);
