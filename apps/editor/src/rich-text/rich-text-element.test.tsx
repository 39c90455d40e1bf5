// @vitest-environment happy-dom
import type { ElementBody } from '@lectern/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-server.ts';
import { renderWithQuery } from '../../test/render.tsx';
import { RichTextElement, type RichTextComponent } from './rich-text-element.tsx';

const element = (limits: Record<string, unknown> = {}): ElementBody => ({
  id: 'e0000000-0000-4000-8000-000000000001',
  codename: 'body',
  type: 'rich_text',
  name: 'Body',
  ...limits,
});

const componentId = '9a0ba7ab-0b2a-4b35-8c1b-1cbf8d8c1e6f';
const quoteType = { id: 't0000000-0000-4000-8000-000000000001', name: 'Quote', codename: 'quote', elements: [] };

function renderElement(options: {
  value: string;
  limits?: Record<string, unknown>;
  components?: RichTextComponent[];
  isReadOnly?: boolean;
}) {
  fakeApi({
    'GET /v2/projects/p1/types': () => ({ body: { types: [quoteType], pagination: { continuation_token: null } } }),
  });
  const onChange = vi.fn<(next: { value: string; components: RichTextComponent[] }) => void>();
  renderWithQuery(
    <RichTextElement
      id="body"
      label="Body"
      element={element(options.limits)}
      value={options.value}
      components={options.components ?? []}
      onChange={onChange}
      isReadOnly={options.isReadOnly ?? false}
      projectId="p1"
      renderComponent={(component) => <p>Form of component {component.id}</p>}
    />,
  );
  const text = screen.getByRole('textbox', { name: 'Body' });
  return { onChange, text };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RichTextElement', () => {
  it('opens the value as editable text labelled by the element name, without reporting a change', () => {
    const { onChange, text } = renderElement({ value: '<h2>Tea</h2><p>Green &amp; black</p>' });
    expect(text.getAttribute('contenteditable')).toBe('true');
    expect(text.querySelector('h2')?.textContent).toBe('Tea');
    expect(text.textContent).toContain('Green & black');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('is a toolbar with one tab stop, moved by the arrow keys, whose buttons apply formatting', () => {
    const { onChange, text } = renderElement({ value: '<p>Hello</p>' });
    const toolbar = screen.getByRole('toolbar', { name: 'Body: formatting' });
    const stops = () => [...toolbar.querySelectorAll('[tabindex="0"]')];
    expect(stops()).toHaveLength(1);
    const style = screen.getByRole('combobox', { name: 'Text style' });
    expect(stops()[0]).toBe(style);
    style.focus();
    fireEvent.keyDown(style, { key: 'ArrowRight' });
    const bold = screen.getByRole('button', { name: 'Bold' });
    expect(document.activeElement).toBe(bold);
    expect(stops()).toEqual([bold]);
    fireEvent.keyDown(bold, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Italic' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(style);
    fireEvent.keyDown(style, { key: 'End' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Redo' }));

    fireEvent.keyDown(text, { key: 'a', ctrlKey: true });
    expect(bold.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(bold);
    expect(onChange).toHaveBeenLastCalledWith({ value: '<p><strong>Hello</strong></p>', components: [] });
    expect(bold.getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(text, { key: 'z', ctrlKey: true });
    expect(onChange).toHaveBeenLastCalledWith({ value: '<p>Hello</p>', components: [] });
  });

  it('disables what the limits refuse: the buttons say so and do nothing, the menu offers only allowed styles', () => {
    const { onChange, text } = renderElement({
      value: '<p>Hello</p>',
      limits: {
        allowed_blocks: ['text'],
        allowed_text_blocks: ['paragraph', 'heading-three'],
        allowed_formatting: ['unstyled', 'italic'],
      },
    });
    fireEvent.keyDown(text, { key: 'a', ctrlKey: true });
    const bold = screen.getByRole('button', { name: 'Bold' });
    expect(bold.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(bold);
    fireEvent.keyDown(text, { key: 'b', ctrlKey: true });
    expect(onChange).not.toHaveBeenCalled();
    for (const name of ['Insert table', 'Insert image', 'Bulleted list', 'Insert new component'])
      expect(screen.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    const options = [...screen.getByRole('combobox', { name: 'Text style' }).querySelectorAll('option')];
    expect(options.filter((o) => !o.disabled).map((o) => o.textContent)).toEqual(['Paragraph', 'Heading 3']);
    fireEvent.click(screen.getByRole('button', { name: 'Italic' }));
    expect(onChange).toHaveBeenLastCalledWith({ value: '<p><em>Hello</em></p>', components: [] });
  });

  it('shows components as nested forms and drops a removed component from the value', async () => {
    const component: RichTextComponent = { id: componentId, type: { id: quoteType.id }, elements: [] };
    const { onChange } = renderElement({
      value: `<p>Before</p><object type="application/kenticocloud" data-type="component" data-id="${componentId}"></object>`,
      components: [component],
    });
    expect(screen.getByText(`Form of component ${componentId}`)).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Component: Quote' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove component Quote' }));
    });
    expect(onChange).toHaveBeenLastCalledWith({ value: '<p>Before</p>', components: [] });
  });

  it('counts the text live against the maximum length, with the API message once over', () => {
    renderElement({
      value: '<p>One two three</p>',
      limits: { maximum_text_length: { value: 2, applies_to: 'words' } },
    });
    expect(screen.getByText('3 / 2 words')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The value is longer than 2 words.');
  });

  it('is read-only for a person who may not change the item: no typing, no tools, no Remove', () => {
    const component: RichTextComponent = { id: componentId, type: { id: quoteType.id }, elements: [] };
    const { onChange, text } = renderElement({
      value: `<p>Hello</p><object type="application/kenticocloud" data-type="component" data-id="${componentId}"></object>`,
      components: [component],
      isReadOnly: true,
    });
    expect(text.getAttribute('contenteditable')).toBe('false');
    expect(text.getAttribute('aria-readonly')).toBe('true');
    for (const name of ['Bold', 'Insert link', 'Insert table', 'Undo'])
      expect(screen.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    expect((screen.getByRole('combobox', { name: 'Text style' }) as HTMLSelectElement).disabled).toBe(true);
    fireEvent.keyDown(text, { key: 'b', ctrlKey: true });
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it("shows a value changed from outside (another person's save) without reporting it as a change", () => {
    fakeApi({});
    const onChange = vi.fn();
    const ui = (value: string) => (
      <RichTextElement
        id="body"
        label="Body"
        element={element()}
        value={value}
        components={[]}
        onChange={onChange}
        isReadOnly={false}
        projectId="p1"
        renderComponent={() => null}
      />
    );
    const { client, rerender } = renderWithQuery(ui('<p>Mine</p>'));
    rerender(<QueryClientProvider client={client}>{ui('<h3>Theirs</h3>')}</QueryClientProvider>);
    const text = screen.getByRole('textbox', { name: 'Body' });
    expect(text.querySelector('h3')?.textContent).toBe('Theirs');
    expect(text.textContent).not.toContain('Mine');
    expect(onChange).not.toHaveBeenCalled();
  });
});
