// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../test-support/render.tsx';
import { completeValues, ElementsForm } from './elements-form.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);

const groups = [
  { id: 'g1', name: 'Content' },
  { id: 'g2', name: 'Metadata' },
  { id: 'g3', name: 'Extra' },
];
const elements: TypeElement[] = [
  { id: 'a', codename: 'a', type: 'text', name: 'Headline', content_group: { id: 'g1' } },
  { id: 'b', codename: 'b', type: 'text', name: 'Keywords', content_group: { id: 'g2' } },
  { id: 'c', codename: 'c', type: 'text', name: 'Orphan' },
  {
    id: 'd',
    codename: 'seo__t',
    type: 'text',
    name: 'Meta title',
    content_group: { id: 'g2' },
    snippet_of: { id: 's', name: 'SEO' },
  },
];

function open() {
  return renderWithApp(
    <ElementsForm
      idPrefix="f"
      elements={elements}
      contentGroups={groups}
      values={completeValues(elements, [])}
      onChange={() => undefined}
      isReadOnly={false}
    />,
  );
}

describe('ElementsForm', () => {
  it('shows content groups as WAI-ARIA tabs moved by arrow keys, Home and End', () => {
    open();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected'), t.getAttribute('tabindex')])).toEqual([
      ['Content', 'true', '0'],
      ['Metadata', 'false', '-1'],
      ['Extra', 'false', '-1'],
    ]);
    fireEvent.keyDown(tabs[0] as HTMLElement, { key: 'ArrowLeft' });
    expect(document.activeElement?.textContent).toBe('Extra');
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Home' });
    expect(document.activeElement?.textContent).toBe('Content');
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowRight' });
    const panel = screen.getByRole('tabpanel', { name: 'Metadata' });
    expect(within(panel).getByLabelText('Keywords')).toBeTruthy();
    expect(within(within(panel).getByRole('region', { name: 'SEO' })).getByLabelText('Meta title')).toBeTruthy();
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'End' });
    expect(screen.getByRole('tabpanel', { name: 'Extra' }).textContent).toBe('');
  });

  it('puts an element without a known group on the first tab', () => {
    open();
    const first = screen.getByRole('tabpanel', { name: 'Content' });
    expect(within(first).getByLabelText('Orphan')).toBeTruthy();
  });
});
