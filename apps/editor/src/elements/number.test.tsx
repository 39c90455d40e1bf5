// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderElement } from '../test-support/render.tsx';
import { NumberElement } from './number.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);
const el: TypeElement = { id: 'n', codename: 'reading_time', type: 'number', name: 'Reading time' };

describe('NumberElement', () => {
  it('shows the stored number and produces numbers, null when emptied', () => {
    const { last } = renderElement(NumberElement, el, { element: { id: 'n' }, value: 318 });
    const box = screen.getByLabelText('Reading time');
    expect(box).toHaveProperty('value', '318');
    fireEvent.change(box, { target: { value: '-2.5' } });
    expect(last()).toEqual({ element: { id: 'n' }, value: -2.5 });
    fireEvent.change(box, { target: { value: '' } });
    expect(last()).toEqual({ element: { id: 'n' }, value: null });
  });

  it('keeps text that is not a number out of the value and says so', () => {
    const { changes } = renderElement(NumberElement, el, { element: { id: 'n' }, value: 7 });
    fireEvent.change(screen.getByLabelText('Reading time'), { target: { value: '12abc' } });
    expect(changes).toEqual([]);
    expect(screen.getByText('Enter a number, such as 42 or 3.14.')).toBeTruthy();
    expect(screen.getByLabelText('Reading time').getAttribute('aria-invalid')).toBe('true');
  });
});
