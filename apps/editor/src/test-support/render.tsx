import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { FormScopeContext, type FormScope } from '../elements/element-props.ts';
import type { ElementProps } from '../elements/element-props.ts';
import { ElementField } from '../elements/element-field.tsx';
import { checkElement } from '../elements/validation.ts';
import type { ElementValue, TypeElement } from '../elements/model.ts';

/**
 * Test support for the editor's components (happy-dom): a fresh query cache, a memory router,
 * and `fetch` answered by a route table of Management API v2 paths (under /app/api/v2/projects/p).
 */
export type Routes = Record<string, ((body: unknown) => unknown) | object>;

export function mockApi(routes: Routes) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^.*\/app\/api\/v2\/projects\/[^/]+/, '');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, body });
    const key = `${method} ${path}`;
    const answer = key in routes ? routes[key] : routes[path];
    if (answer === undefined) return new Response(JSON.stringify({ message: `No route ${key}` }), { status: 404 });
    const data = typeof answer === 'function' ? (answer as (b: unknown) => unknown)(body) : answer;
    if (data instanceof Response) return data;
    return new Response(JSON.stringify(data), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export interface AppRender extends RenderResult {
  readonly client: QueryClient;
  readonly location: ReturnType<typeof memoryLocation>;
}

export function renderWithApp(ui: ReactElement, path = '/'): AppRender {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const location = memoryLocation({ path, record: true });
  const result = render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook}>{ui}</Router>
    </QueryClientProvider>,
  );
  return { ...result, client, location };
}

export const testScope: FormScope = {
  projectId: 'p',
  language: { id: '00000000-0000-0000-0000-000000000000', codename: 'default' },
  item: { id: 'item-1', codename: 'item_1', name: 'Item 1' },
  values: new Map(),
  elements: [],
  renderComponent: () => null,
};

/**
 * Renders one element component as the form does (inside its field: name, guidelines,
 * messages), keeping its value in state; `changes` records
 * every value the component produced (the last one is what Save would send).
 */
export function renderElement(
  Component: (p: ElementProps) => ReactElement | null,
  element: TypeElement,
  initial: ElementValue,
  options: { isReadOnly?: boolean; scope?: Partial<FormScope> } = {},
): AppRender & { changes: ElementValue[]; last: () => ElementValue | undefined } {
  const changes: ElementValue[] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    const scope = { ...testScope, ...options.scope, elements: [element, ...(options.scope?.elements ?? [])] };
    const values = new Map(scope.values);
    values.set(element.id, value);
    return (
      <FormScopeContext.Provider value={{ ...scope, values }}>
        <ElementField
          prefix="t"
          element={element}
          value={value}
          onChange={(next) => {
            changes.push(next);
            setValue(next);
          }}
          isReadOnly={options.isReadOnly ?? false}
          problems={checkElement(element, value)}
          apiErrors={[]}
          component={Component}
        />
      </FormScopeContext.Provider>
    );
  }
  const result = renderWithApp(<Harness />);
  return { ...result, changes, last: () => changes[changes.length - 1] };
}
