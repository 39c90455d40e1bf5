// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderElement } from '../test-support/render.tsx';
import { MultipleChoiceElement } from './multiple-choice.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);
const options = [
  { id: 'o1', codename: 'red', name: 'Red' },
  { id: 'o2', codename: 'green', name: 'Green' },
  { id: 'o3', codename: 'blue', name: 'Blue' },
];

describe('MultipleChoiceElement', () => {
  it('is checkboxes in multiple mode, the value in the order the type lists the options', () => {
    const el: TypeElement = {
      id: 'm',
      codename: 'colours',
      type: 'multiple_choice',
      name: 'Colours',
      mode: 'multiple',
      options,
    };
    const { last } = renderElement(MultipleChoiceElement, el, { element: { id: 'm' }, value: [{ id: 'o3' }] });
    expect(screen.getByRole('group', { name: 'Colours' })).toBeTruthy();
    expect(screen.getByLabelText('Blue')).toHaveProperty('checked', true);
    fireEvent.click(screen.getByLabelText('Red'));
    expect(last()).toEqual({ element: { id: 'm' }, value: [{ id: 'o1' }, { id: 'o3' }] });
    fireEvent.click(screen.getByLabelText('Blue'));
    expect(last()).toEqual({ element: { id: 'm' }, value: [{ id: 'o1' }] });
  });

  it('is radio buttons in single mode, with Clear', () => {
    const el: TypeElement = {
      id: 'm',
      codename: 'size',
      type: 'multiple_choice',
      name: 'Size',
      mode: 'single',
      options,
    };
    const { last } = renderElement(MultipleChoiceElement, el, { element: { id: 'm' }, value: [] });
    expect(screen.getByRole('radiogroup', { name: 'Size' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Green'));
    expect(last()).toEqual({ element: { id: 'm' }, value: [{ id: 'o2' }] });
    fireEvent.click(screen.getByLabelText('Blue'));
    expect(last()).toEqual({ element: { id: 'm' }, value: [{ id: 'o3' }] });
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(last()).toEqual({ element: { id: 'm' }, value: [] });
  });
});
