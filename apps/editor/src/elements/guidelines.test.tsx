// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GuidelinesElement, guidelinesText } from './guidelines.tsx';

afterEach(cleanup);

describe('GuidelinesElement', () => {
  it('shows guidelines HTML as text, one paragraph a block, injecting nothing', () => {
    const html =
      '<h2>Tone</h2><p><em>Be</em> brief.</p><ul><li>One</li><li>Two</li></ul><img src=x onerror="window.hacked=1"><script>window.hacked=2</script>';
    const { container } = render(
      <GuidelinesElement
        element={{ id: 'g', codename: 'g', type: 'guidelines', guidelines: html }}
        value={{ element: { id: 'g' }, value: null }}
        onChange={() => undefined}
        isReadOnly={false}
        inputId="i"
        labelId="l"
        describedBy={undefined}
      />,
    );
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Tone', 'Be brief.', 'One', 'Two']);
    expect(container.querySelector('img, script, em')).toBeNull();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
    expect(screen.getByText('Be brief.')).toBeTruthy();
  });

  it('has no text for empty guidelines', () => {
    expect(guidelinesText(null)).toEqual([]);
    expect(guidelinesText('<p> </p>')).toEqual([]);
  });
});
