// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderWithApp } from '../test-support/render.tsx';
import { ElementsForm } from './elements-form.tsx';
import type { ElementValue, TypeElement } from './model.ts';

afterEach(cleanup);
beforeEach(() => {
  const quote = {
    id: 'tq',
    codename: 'quote',
    name: 'Quote',
    content_groups: [],
    elements: [{ id: 'qt', codename: 'quote_text', type: 'text', name: 'Quote text' }],
  };
  mockApi({
    '/types': { types: [quote], pagination: { continuation_token: null } },
    '/types/tq': {
      id: 'tq',
      codename: 'quote',
      name: 'Quote',
      content_groups: [],
      elements: [{ id: 'qt', codename: 'quote_text', type: 'text', name: 'Quote text' }],
    },
  });
});

const body: TypeElement = { id: 'rt', codename: 'body', type: 'rich_text', name: 'Body' };
const loaded: ElementValue = {
  element: { id: 'rt' },
  value: '<p>Intro</p><object type="application/kenticocloud" data-type="component" data-id="c1"></object>',
  components: [{ id: 'c1', type: { id: 'tq' }, elements: [{ element: { id: 'qt' }, value: 'Be kind' }] }],
};

function Harness({ out }: { out: ElementValue[][] }) {
  const [values, setValues] = useState<ElementValue[]>([loaded]);
  out.push(values);
  return (
    <ElementsForm
      idPrefix="f"
      elements={[body]}
      values={values}
      onChange={setValues}
      isReadOnly={false}
      scope={{ projectId: 'p', language: { id: 'l', codename: 'default' }, item: null }}
    />
  );
}

describe('rich text element (RichTextElement in the form)', () => {
  it('opens the value labelled by the element name and applies formatting, keeping the components', () => {
    const out: ElementValue[][] = [];
    renderWithApp(<Harness out={out} />);
    const text = screen.getByRole('textbox', { name: 'Body' });
    expect(text.textContent).toContain('Intro');
    expect(out).toHaveLength(1);
    fireEvent.keyDown(text, { key: 'a', ctrlKey: true });
    fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    const last = out.at(-1)?.[0];
    expect(last?.value).toContain('<strong>Intro</strong>');
    expect(last?.components).toEqual(loaded.components);
  });

  it("edits a component's elements in a nested form of its type", async () => {
    const out: ElementValue[][] = [];
    renderWithApp(<Harness out={out} />);
    const quote = await screen.findByLabelText('Quote text');
    expect(quote).toHaveProperty('value', 'Be kind');
    fireEvent.change(quote, { target: { value: 'Be brave' } });
    expect(out.at(-1)).toEqual([
      {
        ...loaded,
        components: [{ id: 'c1', type: { id: 'tq' }, elements: [{ element: { id: 'qt' }, value: 'Be brave' }] }],
      },
    ]);
  });
});
