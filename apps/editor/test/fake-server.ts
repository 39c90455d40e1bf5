/**
 * A fake `/app/api` for component tests: routes answered from the test's own handlers, every
 * request recorded. It stands in for the server only where the test says what the server would
 * answer (the MAPI shapes from the reference); the integration tests run the real one.
 */
import { vi } from 'vitest';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

export interface Answer {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** Answers a request; a promise holds the answer back until the test lets it go. */
export type Handler = (request: Recorded) => Answer | Promise<Answer>;

export function fakeApi(routes: Record<string, Handler>) {
  const calls: Recorded[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const method = init?.method ?? 'GET';
    const headers = Object.fromEntries(Object.entries((init?.headers as Record<string, string>) ?? {}));
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const path = url.pathname.replace(/^\/app\/api/, '');
    const recorded = { method, path, body, headers };
    calls.push(recorded);
    const handler = routes[`${method} ${path}`];
    const answer: Answer = handler
      ? await handler(recorded)
      : { status: 404, body: { message: `No route ${method} ${path}` } };
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}

/** An asset in the MAPI v2 form (fields as the server's assetJson renders them). */
export function assetOf(over: Partial<Record<string, unknown>> & { id: string; file_name: string }) {
  return {
    title: null,
    size: 1234,
    type: 'image/png',
    url: `https://assets.test/p1/${over.id}/${over.file_name}`,
    image_width: 10,
    image_height: 10,
    file_reference: { id: `file-${over.id}`, type: 'internal' },
    descriptions: [
      { language: { id: '00000000-0000-0000-0000-000000000000' }, description: null },
      { language: { id: 'lang-de' }, description: null },
    ],
    collection: { reference: null },
    elements: [],
    codename: over.file_name.replace(/\W/g, '_'),
    last_modified: '2026-11-27T10:00:00.000Z',
    ...over,
  };
}

/** `GET /session` of a person in project p1 with these permissions (the session route's shape). */
export function sessionRoute(permissions: string[]): Record<string, Handler> {
  return {
    'GET /session': () => ({
      body: {
        user: { id: 'u1', email: 'person@example.com' },
        csrf_token: 'csrf-session',
        projects: [{ id: 'p1', name: 'P', roles: ['Content creator'], permissions }],
      },
    }),
  };
}
