// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderElement } from '../test-support/render.tsx';
import { DateTimeElement, fromLocalInput, toLocalInput } from './date-time.tsx';
import type { TypeElement } from './model.ts';

afterEach(cleanup);
const el: TypeElement = { id: 'd', codename: 'published_on', type: 'date_time', name: 'Published on' };

describe('DateTimeElement', () => {
  it('shows the moment in the display time zone and stores UTC with the zone', () => {
    const { last } = renderElement(DateTimeElement, el, {
      element: { id: 'd' },
      value: '2024-11-30T00:00:00Z',
      display_timezone: 'Europe/Prague',
    });
    const input = screen.getByLabelText('Published on');
    expect(input).toHaveProperty('value', '2024-11-30T01:00');
    fireEvent.change(input, { target: { value: '2024-07-01T09:30' } });
    // Prague is UTC+2 in summer.
    expect(last()).toEqual({ element: { id: 'd' }, value: '2024-07-01T07:30:00Z', display_timezone: 'Europe/Prague' });
  });

  it('changes the display time zone and clears the value', () => {
    const { last } = renderElement(DateTimeElement, el, {
      element: { id: 'd' },
      value: '2024-01-01T12:00:00Z',
      display_timezone: null,
    });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'America/New_York' } });
    expect(last()).toEqual({
      element: { id: 'd' },
      value: '2024-01-01T12:00:00Z',
      display_timezone: 'America/New_York',
    });
    expect(screen.getByLabelText('Published on')).toHaveProperty('value', '2024-01-01T07:00');
    fireEvent.change(screen.getByLabelText('Published on'), { target: { value: '' } });
    expect(last()?.value).toBeNull();
  });

  it('converts across a daylight-saving change both ways', () => {
    expect(fromLocalInput('2024-03-31T03:30', 'Europe/Prague')).toBe('2024-03-31T01:30:00Z');
    expect(toLocalInput('2024-10-27T00:30:00Z', 'Europe/Prague')).toBe('2024-10-27T02:30');
    expect(fromLocalInput('2024-05-05T10:00:15', 'UTC')).toBe('2024-05-05T10:00:15Z');
  });
});
