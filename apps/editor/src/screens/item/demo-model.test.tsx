// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { TypeElement, VariantJson } from '../../elements/model.ts';
import type { ItemJson } from '../../elements/queries.ts';
import { renderWithApp } from '../../test-support/render.tsx';
import {
  callManagement,
  managementJson,
  routeFetchTo,
  startDemoStack,
  type RealStack,
} from '../../test-support/real-management.ts';
import { ItemScreen } from './item-screen.tsx';

/*
 * The demo project (services/lectern demo-model.ts and demo-content.ts) on the real Management
 * API: every item opens in the editor with every element of its type, shows no error, and saving
 * a form whose values were changed and changed back stores exactly what was loaded.
 */
let stack: RealStack;
beforeAll(async () => {
  stack = await startDemoStack();
}, 120_000);
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const isPublished = (v: VariantJson) => v.workflow_step?.id === 'c199950d-99f0-4983-b711-6c4c91624b22';

function openEditor(path: string) {
  return renderWithApp(<Route path="/p/:projectId/:language/items/:itemId" component={ItemScreen} />, path);
}

/** Every element the variant holds has its field in the form. */
function expectEveryElement(container: HTMLElement, variant: VariantJson, label: string) {
  for (const entry of variant.elements)
    expect(
      container.querySelector(`[id="item-el-${entry.element.id}"]`),
      `${label}: ${entry.element.id}`,
    ).not.toBeNull();
}

describe('the item editor on the demo project', () => {
  it('opens every item of the demo model, and saves an unchanged form back unchanged', async () => {
    const { items } = await managementJson<{ items: ItemJson[] }>(stack, '/items');
    const { languages } = await managementJson<{ languages: { id: string; codename: string }[] }>(stack, '/languages');
    expect(items.length).toBeGreaterThanOrEqual(4);
    const kinds = new Set<string>();
    let saved = 0;
    for (const item of items) {
      const variants = await managementJson<VariantJson[]>(stack, `/items/${item.id}/variants`);
      const type = await managementJson<{ elements: TypeElement[] }>(stack, `/types/${item.type.id}`);
      for (const loaded of variants) {
        const language = languages.find((l) => l.id === loaded.language.id);
        const path = `/p/${stack.projectId}/${language?.codename}/items/${item.id}`;
        for (const def of type.elements) kinds.add(def.type);
        let writes = routeFetchTo(stack, ['manage_content']);
        let view = openEditor(path);
        await screen.findByRole('button', { name: 'Save' }, { timeout: 10_000 });
        expectEveryElement(view.container, loaded, item.codename);
        if (isPublished(loaded)) {
          // A published variant opens read-only, saying why; a new version makes it editable.
          expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
          expect(screen.getByText('This item is published. Create a new version to change it.')).toBeTruthy();
          expect(view.container.querySelector<HTMLTextAreaElement>('.element-text textarea')?.readOnly).toBe(true);
          cleanup();
          vi.unstubAllGlobals();
          await callManagement(stack, `/items/${item.id}/variants/${loaded.language.id}/new-version`, {
            method: 'PUT',
          });
          writes = routeFetchTo(stack, ['manage_content']);
          view = openEditor(path);
          await screen.findByRole('button', { name: 'Save' }, { timeout: 10_000 });
        }
        const variant = await managementJson<VariantJson>(stack, `/items/${item.id}/variants/${loaded.language.id}`);
        expect(view.container.querySelectorAll('.element-field.has-error')).toHaveLength(0);
        // Change the first text element and change it back: the form is dirty, its values are the loaded ones.
        const first = view.container.querySelector<HTMLTextAreaElement>('.element-text textarea');
        if (!first) throw new Error(`${item.codename} has no text element`);
        const before = first.value;
        fireEvent.change(first, { target: { value: `${before} (edited)` } });
        fireEvent.change(first, { target: { value: before } });
        fireEvent.click(screen.getByRole('button', { name: 'Save' }));
        await waitFor(() =>
          expect([
            document.getElementById('item-save-status')?.textContent,
            document.querySelector('.error-summary')?.textContent,
          ]).toEqual(['Saved', undefined]),
        );
        const put = writes.find((w) => w.method === 'PUT');
        expect(put?.body, item.codename).toEqual({ elements: variant.elements });
        const after = await managementJson<VariantJson>(stack, `/items/${item.id}/variants/${loaded.language.id}`);
        expect(after.elements, item.codename).toEqual(variant.elements);
        saved++;
        cleanup();
        vi.unstubAllGlobals();
      }
    }
    expect(saved).toBeGreaterThanOrEqual(4);
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining([
        'asset',
        'date_time',
        'modular_content',
        'number',
        'rich_text',
        'snippet',
        'taxonomy',
        'text',
        'url_slug',
      ]),
    );
  }, 120_000);
});
