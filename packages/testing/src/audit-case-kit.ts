import * as core from '@lectern/core';
import type { Actor } from '@lectern/core';
import type { TestCore } from './test-core.ts';

/* The pieces the exactly-once audit test (audit-operations.int.test.ts) and its cases share. */

export interface Ctx {
  deps: TestCore;
  actor: Actor;
  projectId: string;
  state: Record<string, string>;
}

/** One operation's case: its name in core, the action it must record, its run, and the actor type when not the operator. */
export type AuditCase = [
  name: string,
  action: string,
  run: (c: Ctx) => Promise<unknown>,
  actorType?: 'user' | 'anonymous',
];

export function m(c: Ctx) {
  return { actor: c.actor, projectId: c.projectId };
}
export function v(c: Ctx, item = 'first') {
  return { ...m(c), itemKey: { codename: item }, languageKey: { codename: 'default' } };
}

/** Items with a variant for the workflow cases, made before they run (not counted). */
export async function prepareVariants(c: Ctx): Promise<void> {
  await core.addContentType(c.deps, {
    ...m(c),
    body: { name: 'Page', codename: 'page', elements: [{ type: 'text', name: 'Title', codename: 'title' }] },
  } as never);
  for (const codename of ['second', 'third']) {
    await core.addItem(c.deps, { ...m(c), body: { name: codename, codename, type: { codename: 'page' } } });
    await core.upsertVariant(c.deps, {
      ...v(c, codename),
      body: { elements: [{ element: { codename: 'title' }, value: codename }] },
    });
    await core.publishVariant(c.deps, v(c, codename));
  }
}
