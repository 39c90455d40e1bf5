/**
 * axe-core over the rendered document in happy-dom. happy-dom does no layout, so the rules that
 * need it (colour contrast, target size, scrollable regions) are left to the Chromium runs; every
 * other rule runs. Returns the serious and critical violations, described for a failure message.
 */
import axe from 'axe-core';

export async function seriousViolations(root: Element = document.body): Promise<string[]> {
  const result = await axe.run(root, {
    rules: {
      'color-contrast': { enabled: false },
      'target-size': { enabled: false },
      'scrollable-region-focusable': { enabled: false },
    },
    resultTypes: ['violations'],
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
