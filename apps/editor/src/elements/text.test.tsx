// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderElement } from '../test-support/render.tsx';
import { TextElement } from './text.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);

const title: TypeElement = {
  id: 'e1',
  codename: 'title',
  type: 'text',
  name: 'Title',
  maximum_text_length: { value: 3, applies_to: 'words' },
};

describe('TextElement', () => {
  it('edits the text and produces the MAPI value shape', () => {
    const { last } = renderElement(TextElement, title, { element: { id: 'e1' }, value: 'Hello' });
    const box = screen.getByLabelText('Title');
    expect(box).toHaveProperty('value', 'Hello');
    fireEvent.change(box, { target: { value: 'Hello big world' } });
    expect(last()).toEqual({ element: { id: 'e1' }, value: 'Hello big world' });
  });

  it('counts words live against the limit and flags going over', () => {
    renderElement(TextElement, title, { element: { id: 'e1' }, value: 'one two' });
    expect(screen.getByText('2 of 3 words')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'one two three four' } });
    const counter = screen.getByText('4 of 3 words');
    expect(counter.className).toContain('is-over');
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');
  });

  it('counts characters as code points when the limit is in characters', () => {
    const el = { ...title, maximum_text_length: { value: 10, applies_to: 'characters' } };
    renderElement(TextElement, el, { element: { id: 'e1' }, value: 'añ😀' });
    expect(screen.getByText('3 of 10 characters')).toBeTruthy();
  });

  it('is read-only when the person may not change content', () => {
    renderElement(TextElement, title, { element: { id: 'e1' }, value: 'x' }, { isReadOnly: true });
    expect(screen.getByLabelText('Title')).toHaveProperty('readOnly', true);
  });
});
