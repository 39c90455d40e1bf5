import type { CoreDeps, DeliveryIndexReader, Signals } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { buildGraphqlApp, type GraphqlAppOptions } from '../app.ts';

/**
 * The slice of `startTestStack()` (test/stack/test-stack.ts) these tests use, loaded by path: the
 * stack runs this service, so this service cannot depend on it.
 */
export interface Stack {
  readonly core: CoreDeps & { store: { signals: Signals } };
  readonly projectId: string;
  readonly deliveryKey: string;
  readonly previewKey: string;
  readonly index: DeliveryIndexReader;
  managementJson(path: string, options?: { method?: string; body?: unknown }): Promise<Record<string, unknown>>;
  catchUp(): Promise<void>;
  close(): Promise<void>;
}

const lecternSrc = new URL('../../../lectern/src/', import.meta.url).pathname;
const stackModule = new URL('../../../../test/stack/test-stack.ts', import.meta.url).pathname;

export async function startStack(): Promise<Stack> {
  const { startTestStack } = (await import(stackModule)) as { startTestStack: () => Promise<Stack> };
  return startTestStack();
}

/** The demo project's content model (services/lectern/src/demo-model.ts) in a project. */
export async function seedDemoModel(core: CoreDeps, projectId: string): Promise<void> {
  const module = (await import(`${lecternSrc}demo-model.ts`)) as {
    seedDemoModel: (core: CoreDeps, projectId: string) => Promise<void>;
  };
  await module.seedDemoModel(core, projectId);
}

/** A GraphQL listener on the stack's store and index, on a free port. */
export async function listenGraphql(
  stack: Stack,
  options: Partial<Pick<GraphqlAppOptions, 'graphql' | 'http' | 'channel'>> = {},
): Promise<Listening & { close(): Promise<void> }> {
  const app = buildGraphqlApp({
    core: stack.core,
    index: stack.index,
    signals: stack.core.store.signals,
    http: { rateLimits: [], ...options.http },
    ...(options.graphql === undefined ? {} : { graphql: options.graphql }),
    ...(options.channel === undefined ? {} : { channel: options.channel }),
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
  });
  return listen(app, { host: '127.0.0.1', port: 0, graceMs: 500 });
}

/** Demo content: two authors, three articles (one with a Czech variant), a component and links. */
export async function seedDemoContent(stack: Stack): Promise<void> {
  const mapi = (path: string, body?: unknown, method = 'POST') => stack.managementJson(path, { method, body });
  const item = async (codename: string, type: string, elements: unknown[], language = 'default') => {
    await mapi('/items', { name: codename, codename, type: { codename: type } }).catch(() => undefined);
    await mapi(`/items/codename/${codename}/variants/codename/${language}`, { elements }, 'PUT');
    await mapi(`/items/codename/${codename}/variants/codename/${language}/publish`, undefined, 'PUT');
  };
  const author = (name: string) => [
    { element: { codename: 'name' }, value: name },
    { element: { codename: 'bio' }, value: `<p>${name} writes.</p>` },
  ];
  await item('jane_doe', 'author', author('Jane Doe'));
  await item('john_roe', 'author', author('John Roe'));
  const johnId = String((await mapi('/items/codename/john_roe', undefined, 'GET'))['id']);
  const componentId = '11111111-1111-4111-8111-111111111111';
  const article = (o: {
    title: string;
    reading: number;
    on: string;
    authors: string[];
    topics: string[];
    body?: string;
    components?: unknown[];
  }) => [
    { element: { codename: 'title' }, value: o.title },
    { element: { codename: 'summary' }, value: `About ${o.title}` },
    { element: { codename: 'body' }, value: o.body ?? `<p>${o.title}</p>`, components: o.components ?? [] },
    { element: { codename: 'published_on' }, value: o.on, display_timezone: 'Europe/Prague' },
    { element: { codename: 'reading_time' }, value: o.reading },
    { element: { codename: 'authors' }, value: o.authors.map((codename) => ({ codename })) },
    { element: { codename: 'topics' }, value: o.topics.map((codename) => ({ codename })) },
    { element: { codename: 'seo__meta_title' }, value: `${o.title} | Demo` },
    { element: { codename: 'seo__meta_description' }, value: '' },
    { element: { codename: 'slug' }, value: o.title.toLowerCase().replace(/ /g, '-'), mode: 'custom' },
  ];
  await item(
    'hello_world',
    'article',
    article({
      title: 'Hello world',
      reading: 5,
      on: '2026-03-01T10:00:00Z',
      authors: ['jane_doe', 'john_roe'],
      topics: ['engineering'],
      body:
        `<p>See <a data-item-id="${johnId}">John</a>.</p>` +
        `<object type="application/kenticocloud" data-type="item" data-id="${johnId}"></object>` +
        `<object type="application/kenticocloud" data-type="component" data-id="${componentId}"></object>`,
      components: [{ id: componentId, type: { codename: 'author' }, elements: author('Guest Writer') }],
    }),
  );
  await item(
    'pricing_notes',
    'article',
    article({
      title: 'Pricing notes',
      reading: 12,
      on: '2026-04-01T10:00:00Z',
      authors: ['john_roe'],
      topics: ['pricing'],
    }),
  );
  await item(
    'design_basics',
    'article',
    article({ title: 'Design basics', reading: 8, on: '2026-02-01T10:00:00Z', authors: [], topics: ['design'] }),
  );
  await item(
    'hello_world',
    'article',
    article({
      title: 'Ahoj světe',
      reading: 6,
      on: '2026-03-02T10:00:00Z',
      authors: ['jane_doe'],
      topics: ['engineering'],
    }),
    'cs-CZ',
  );
  await stack.catchUp();
}

/**
 * A stack with the demo model and content and a GraphQL listener for each of `options` (the
 * default settings when none), for a test file's `beforeAll`; `close` stops them all.
 */
export async function startDemoGraphql(
  ...options: Partial<Pick<GraphqlAppOptions, 'graphql' | 'http' | 'channel'>>[]
): Promise<{ stack: Stack; urls: string[]; close(): Promise<void> }> {
  const stack = await startStack();
  await seedDemoModel(stack.core, stack.projectId);
  await seedDemoContent(stack);
  const listeners: Awaited<ReturnType<typeof listenGraphql>>[] = [];
  for (const o of options.length === 0 ? [{}] : options) listeners.push(await listenGraphql(stack, o));
  return {
    stack,
    urls: listeners.map((l) => `${l.url}/${stack.projectId}`),
    close: async () => {
      for (const l of listeners) await l.close();
      await stack.close();
    },
  };
}

/** A GraphQL request as a client sends it: POST of JSON, the answer's status and body. */
export async function postGraphql<Body>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ status: number; body: Body }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}
