// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { fireEvent } from '@testing-library/react';
import { renderElement, renderWithApp } from '../test-support/render.tsx';
import { completeValues, ElementsForm } from './elements-form.tsx';
import { CustomElement } from './custom.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);

const el: TypeElement = {
  id: 'c',
  codename: 'color_picker',
  type: 'custom',
  name: 'Colour picker',
  source_url: 'https://ext.example/picker.html',
  json_parameters: '{"palette":"warm"}',
  allowed_elements: [{ id: 'title' }],
};
const title: TypeElement = { id: 'title', codename: 'title', type: 'text', name: 'Title' };
const secret: TypeElement = { id: 'secret', codename: 'secret', type: 'text', name: 'Secret' };

/** Renders the element and gives its iframe a window whose messages the test reads. */
function setup(options: { isReadOnly?: boolean } = {}) {
  const values = new Map([
    ['title', { element: { id: 'title' }, value: 'Hello' }],
    ['secret', { element: { id: 'secret' }, value: 'hidden' }],
  ]);
  const rendered = renderElement(
    CustomElement,
    el,
    { element: { id: 'c' }, value: '{"hex":"#fff"}', searchable_value: 'white' },
    { ...options, scope: { values, elements: [title, secret] } },
  );
  const iframe = screen.getByTitle('Colour picker') as HTMLIFrameElement;
  const child = { postMessage: vi.fn() };
  Object.defineProperty(iframe, 'contentWindow', { value: child });
  const send = (data: unknown, source: unknown = child, origin = 'https://ext.example') =>
    act(() => {
      const event = new MessageEvent('message', { data, origin });
      Object.defineProperty(event, 'source', { value: source });
      window.dispatchEvent(event);
    });
  const replies = () =>
    child.postMessage.mock.calls.map((c) => ({ message: c[0] as Record<string, unknown>, origin: c[1] as string }));
  return { ...rendered, iframe, send, replies };
}

describe('CustomElement', () => {
  it('shows the source URL in a sandboxed iframe', () => {
    const { iframe } = setup();
    expect(iframe.getAttribute('src')).toBe('https://ext.example/picker.html');
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
  });

  it('answers init with the value, config, item and language, to the element origin only', () => {
    const { send, replies } = setup();
    send({ type: 'init-data-request', requestId: 'r1' });
    expect(replies()).toEqual([
      {
        origin: 'https://ext.example',
        message: {
          type: 'init-data-response',
          requestId: 'r1',
          data: {
            element: { value: '{"hex":"#fff"}', disabled: false, config: { palette: 'warm' } },
            context: {
              projectId: 'p',
              item: { id: 'item-1', codename: 'item_1', name: 'Item 1' },
              variant: { id: '00000000-0000-0000-0000-000000000000', codename: 'default' },
            },
          },
        },
      },
    ]);
  });

  it('ignores a message from another origin (the frame navigated away), even from its window', () => {
    const { send, replies } = setup();
    send({ type: 'init-data-request', requestId: 'r1' }, undefined, 'https://evil.example');
    expect(replies()).toEqual([]);
  });

  it('refuses details of more than 100 ids, or ids that are not strings', () => {
    const { send, replies } = setup();
    send({
      type: 'get-asset-details-request',
      requestId: 'r1',
      data: { assetIds: Array.from({ length: 101 }, () => 'a') },
    });
    send({ type: 'get-item-details-request', requestId: 'r2', data: { itemIds: [1, 2] } });
    expect(replies().map((r) => r.message)).toEqual([
      { type: 'get-asset-details-response', requestId: 'r1', data: { error: 'Provide an array of at most 100 ids.' } },
      { type: 'get-item-details-response', requestId: 'r2', data: { error: 'Provide an array of at most 100 ids.' } },
    ]);
  });

  it('stores what setValue sends as the string value (and searchable value)', () => {
    const { send, last, replies } = setup();
    send({ type: 'set-value-request', requestId: 'r2', data: { value: '{"hex":"#000"}' } });
    expect(last()).toEqual({ element: { id: 'c' }, value: '{"hex":"#000"}', searchable_value: 'white' });
    send({ type: 'set-value-request', requestId: 'r3', data: { value: { value: null, searchableValue: null } } });
    expect(last()).toEqual({ element: { id: 'c' }, value: null, searchable_value: null });
    send({ type: 'set-value-request', requestId: 'r4', data: { value: 42 } });
    expect(last()?.value).toBeNull();
    expect(replies().at(-1)?.message).toEqual({
      type: 'set-value-response',
      requestId: 'r4',
      data: { error: 'The value must be a string or null.' },
    });
  });

  it('sets its height and reads only the elements it is allowed to', () => {
    const { send, iframe, replies } = setup();
    send({ type: 'set-height-request', data: { height: 420 } });
    expect(iframe.style.height).toBe('420px');
    send({ type: 'get-value-request', requestId: 'g1', data: { codename: 'title' } });
    send({ type: 'get-value-request', requestId: 'g2', data: { codename: 'secret' } });
    expect(replies().map((r) => r.message['data'])).toEqual([
      { value: 'Hello' },
      { error: "The element 'secret' is not one this custom element may read." },
    ]);
  });

  it('ignores messages from any other window, and refuses values while read-only', () => {
    const { send, changes, replies } = setup({ isReadOnly: true });
    send({ type: 'set-value-request', requestId: 'x', data: { value: 'evil' } }, window);
    expect(changes).toEqual([]);
    expect(replies().filter((r) => r.message['type'] !== 'on-disabled-changed')).toEqual([]);
    send({ type: 'set-value-request', requestId: 'y', data: { value: 'no' } });
    expect(changes).toEqual([]);
    expect(replies().at(-1)?.message['data']).toEqual({ error: 'The element is read-only.' });
  });

  it('tells an observer when an element it watches changes', () => {
    const defs = [title, el];
    function Form() {
      const [values, setValues] = useState(() => completeValues(defs, []));
      return (
        <ElementsForm
          idPrefix="f"
          elements={defs}
          values={values}
          onChange={setValues}
          isReadOnly={false}
          scope={{ projectId: 'p', language: { id: 'l', codename: 'default' }, item: null }}
        />
      );
    }
    renderWithApp(<Form />);
    const iframe = screen.getByTitle('Colour picker') as HTMLIFrameElement;
    const child = { postMessage: vi.fn() };
    Object.defineProperty(iframe, 'contentWindow', { value: child });
    act(() => {
      const event = new MessageEvent('message', {
        data: { type: 'observe-element-changes', requestId: 'o1', data: { elements: ['title'] } },
        origin: 'https://ext.example',
      });
      Object.defineProperty(event, 'source', { value: child });
      window.dispatchEvent(event);
    });
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'New title' } });
    expect(child.postMessage).toHaveBeenCalledWith(
      { type: 'on-elements-changed', data: { elements: ['title'] }, requestId: 'o1' },
      'https://ext.example',
    );
  });
});
