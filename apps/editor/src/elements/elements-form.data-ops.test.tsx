// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupRoutes, readBackup } from '../test-support/data-ops-backup.ts';
import axe from 'axe-core';
import { mockApi, renderWithApp } from '../test-support/render.tsx';
import { completeValues, ElementsForm, checkAll } from './elements-form.tsx';
import type { ElementValue } from './model.ts';
import { expandSnippets } from './queries.ts';

const backup = readBackup();
const snippets = new Map(backup.snippets.map((s) => [s.id, s]));

afterEach(cleanup);
beforeEach(() => {
  mockApi(backupRoutes(backup));
});

/** Every variant of the backup, with its item's type (snippets expanded). */
const cases = backup.variants.map((variant) => {
  const item = backup.items.find((i) => i.id === variant.item.id);
  const type = backup.types.find((t) => t.id === item?.type.id);
  if (!item || !type) throw new Error(`The backup's variant of ${variant.item.id} has no item or type.`);
  const language = backup.languages.find((l) => l.id === variant.language.id);
  return { name: `${item.name} (${type.name}, ${language?.codename ?? variant.language.id})`, variant, type };
});

describe('ElementsForm on every variant of a data-ops backup of a Kontent.ai project', () => {
  it('covers every element kind the Management API knows', () => {
    const kinds = new Set(cases.flatMap((c) => expandSnippets(c.type.elements, snippets).map((e) => e.type)));
    expect([...kinds].sort()).toEqual([
      'asset',
      'custom',
      'date_time',
      'guidelines',
      'modular_content',
      'multiple_choice',
      'number',
      'rich_text',
      'subpages',
      'taxonomy',
      'text',
      'url_slug',
    ]);
  });

  it.each(cases)('opens $name with every element and saves back exactly what it loaded', async ({ variant, type }) => {
    const defs = expandSnippets(type.elements, snippets);
    const produced: ElementValue[][] = [];
    function Harness() {
      const [values, setValues] = useState(() => completeValues(defs, variant.elements));
      produced.push(values);
      return (
        <ElementsForm
          idPrefix="t"
          elements={defs}
          contentGroups={type.content_groups}
          values={values}
          onChange={setValues}
          isReadOnly={false}
          scope={{ projectId: 'p', language: { id: variant.language.id, codename: 'x' }, item: null }}
        />
      );
    }
    const { container } = renderWithApp(<Harness />);
    // Every element has its field (tabs hide other groups' panels but keep them in the DOM).
    for (const def of defs) expect(container.querySelector(`[id="t-el-${def.id}"]`), def.codename).not.toBeNull();
    await waitFor(() => expect(screen.queryAllByText(/^Loading/)).toHaveLength(0));
    // What the API accepted, the form's checks accept too (no error the API would not give).
    const blocking = [...checkAll(defs, variant.elements)].filter(([, p]) => p.errors.length > 0);
    expect(blocking).toEqual([]);
    expect(container.querySelectorAll('.element-field.has-error')).toHaveLength(0);
    // Nothing edited: the values the form would save are the loaded ones, entry for entry.
    const last = produced[produced.length - 1] ?? [];
    expect(last.slice(0, variant.elements.length)).toEqual(variant.elements);
    expect(last.map((v) => v.element.id).sort()).toEqual(
      defs
        .filter((d) => d.type !== 'guidelines')
        .map((d) => d.id)
        .sort(),
    );
  });

  it('has no serious axe violation with every element kind on screen', async () => {
    // One variant of each type, all on one page (no tabs: every element is checked).
    const oneOfEach = [...new Map(cases.map((c) => [c.type.id, c])).values()];
    const { container } = renderWithApp(
      <main>
        <h1>Items</h1>
        {oneOfEach.map((c, i) => {
          const defs = expandSnippets(c.type.elements, snippets);
          return (
            <section key={c.type.id} aria-label={c.name}>
              <ElementsForm
                idPrefix={`a${i}`}
                elements={defs}
                values={completeValues(defs, c.variant.elements)}
                onChange={() => undefined}
                isReadOnly={false}
                scope={{ projectId: 'p', language: { id: c.variant.language.id, codename: 'x' }, item: null }}
              />
            </section>
          );
        })}
      </main>,
    );
    await waitFor(() => expect(screen.queryAllByText(/^Loading/)).toHaveLength(0));
    const kinds = new Set(oneOfEach.flatMap((c) => expandSnippets(c.type.elements, snippets).map((d) => d.type)));
    expect(kinds.size).toBe(12);
    // As test/axe.ts runs it (rules that need layout left to Chromium), iframes left out: happy-dom
    // loads no page into them and axe would only report that.
    const result = await axe.run(
      { include: [container], exclude: [['iframe']] },
      {
        rules: {
          'color-contrast': { enabled: false },
          'target-size': { enabled: false },
          'scrollable-region-focusable': { enabled: false },
        },
        resultTypes: ['violations'],
      },
    );
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }, 60_000);
});
