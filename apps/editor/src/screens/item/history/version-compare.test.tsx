// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TypeElement } from '../../../elements/model.ts';
import type { VersionVariantJson } from './history-api.ts';
import { VersionCompare } from './version-compare.tsx';
import { readableValue, richTextToText } from './version-text.ts';

/*
 * A version's values as a person reads them, and two versions compared element by element: rich
 * text as its words (never tags), words removed and added marked, unchanged elements named.
 */
const elements: TypeElement[] = [
  { id: 'title', codename: 'title', type: 'text', name: 'Title' },
  { id: 'body', codename: 'body', type: 'rich_text', name: 'Body' },
  {
    id: 'kind',
    codename: 'kind',
    type: 'multiple_choice',
    name: 'Kind',
    options: [
      { id: 'o1', name: 'News' },
      { id: 'o2', name: 'Blog' },
    ],
  },
  { id: 'guide', codename: 'guide', type: 'guidelines', name: 'Guidelines' },
];

function version(n: number, values: { title: string; body: string; kind: string }): VersionVariantJson {
  return {
    item: { id: 'i' },
    language: { id: 'l' },
    last_modified: '2026-01-01T00:00:00Z',
    elements: [
      { element: { id: 'title' }, value: values.title },
      { element: { id: 'body' }, value: values.body },
      { element: { id: 'kind' }, value: [{ id: values.kind }] },
    ],
    version: { number: n } as VersionVariantJson['version'],
  };
}

afterEach(cleanup);

describe('the readable values of a version', () => {
  it('gives rich text as its words, a line per block, objects named', () => {
    const html =
      '<h2>Brew</h2><p>Use <strong>fresh</strong> beans.</p><object type="application/kenticocloud" data-type="component" data-id="c"></object><ul><li>One</li><li>Two</li></ul>';
    expect(richTextToText(html)).toBe('Brew\nUse fresh beans.\n[Component]\nOne\nTwo');
  });
  it('names chosen options and counts references', () => {
    expect(readableValue(elements[2] as TypeElement, { element: { id: 'kind' }, value: [{ id: 'o2' }] })).toBe('Blog');
    expect(
      readableValue(
        { id: 'a', codename: 'a', type: 'asset' },
        { element: { id: 'a' }, value: [{ id: 'x' }, { id: 'y' }] },
      ),
    ).toBe('2 assets');
    expect(readableValue(elements[0] as TypeElement, undefined)).toBe('');
  });
});

describe('VersionCompare', () => {
  it('shows the changed elements as a word diff and names the unchanged ones', () => {
    const older = version(2, { title: 'Flat white', body: '<p>Espresso with <em>steamed</em> milk.</p>', kind: 'o1' });
    const newer = version(5, { title: 'Flat white', body: '<p>Espresso with cold milk.</p>', kind: 'o2' });
    const { container } = render(<VersionCompare older={older} newer={newer} elements={elements} />);
    expect(container.textContent).toContain('From version 2 to version 5: 2 of 3 elements changed.');
    expect([...container.querySelectorAll('del')].map((d) => d.textContent)).toEqual(['steamed', 'News']);
    expect([...container.querySelectorAll('ins')].map((d) => d.textContent)).toEqual(['cold', 'Blog']);
    expect(container.textContent).not.toContain('<em>');
    expect(container.querySelector('.history-unchanged')?.textContent).toBe('Unchanged: Title.');
  });
});
