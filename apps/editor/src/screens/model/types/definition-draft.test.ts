import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { createBody, definitionPatch, draftOf, type Draft } from './definition-draft.ts';
import { definitionKey, problemsOf } from './server-problems.ts';

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

const saved = draftOf(
  {
    id: id(9),
    name: 'Article',
    codename: 'article',
    content_groups: [{ id: id(7), name: 'Main', codename: 'main' }],
    elements: [
      { id: id(1), type: 'text', name: 'Title', codename: 'title', content_group: { id: id(7) } },
      { id: id(2), type: 'number', name: 'Count', codename: 'count', content_group: { id: id(7) } },
      { id: id(3), type: 'text', name: 'Lead', codename: 'lead', content_group: { id: id(7) } },
    ],
  },
  'types',
);

/** Applies the operations as the server does (the subset the editor sends), to check the result. */
function applied(start: Draft, draft: Draft): string[] {
  const order = start.elements.map((e) => e.key);
  for (const op of definitionPatch(start, draft).operations) {
    const key = /id:([^/]+)$/.exec(op.path)?.[1];
    if (op.op === 'remove' && key) order.splice(order.indexOf(key), 1);
    if (op.op === 'move' && key) {
      order.splice(order.indexOf(key), 1);
      order.splice(order.indexOf(String(op.before?.['id'])), 0, key);
    }
    if (op.op === 'addInto' && op.path === '/elements') {
      const name = String((op.value as { codename: string }).codename);
      if (op.before) order.splice(order.indexOf(String(op.before['id'])), 0, name);
      else order.push(name);
    }
  }
  return order;
}

describe('definitionPatch', () => {
  it('sends nothing when nothing changed', () => {
    expect(definitionPatch(saved, saved).operations).toEqual([]);
  });

  it('replaces each changed property, by id, and the name', () => {
    const draft: Draft = {
      ...saved,
      name: 'Story',
      elements: saved.elements.map((e) =>
        e.key === id(1)
          ? { ...e, body: { ...e.body, is_required: true, maximum_text_length: { value: 5, applies_to: 'words' } } }
          : e,
      ),
    };
    expect(definitionPatch(saved, draft).operations).toEqual([
      { op: 'replace', path: '/name', value: 'Story' },
      { op: 'replace', path: `/elements/id:${id(1)}/is_required`, value: true },
      { op: 'replace', path: `/elements/id:${id(1)}/maximum_text_length`, value: { value: 5, applies_to: 'words' } },
    ]);
  });

  it('reorders, removes and inserts new elements where they stand', () => {
    const [title, count, lead] = saved.elements;
    const fresh = { key: 'new-1', body: { type: 'text', name: 'Sub', codename: 'sub' } };
    const tail = { key: 'new-2', body: { type: 'text', name: 'End', codename: 'end' } };
    const draft: Draft = { ...saved, elements: [lead!, fresh, title!, tail] };
    expect(count).toBeDefined();
    const patch = definitionPatch(saved, draft);
    expect(patch.operations[0]).toEqual({ op: 'remove', path: `/elements/id:${id(2)}` });
    expect(applied(saved, draft)).toEqual([id(3), 'sub', id(1), 'end']);
    expect(patch.targets).toEqual([id(2), id(3), 'new-1', 'new-2']);
  });

  it('the POST body carries no ids', () => {
    const body = createBody({
      ...saved,
      elements: [{ key: 'new-1', body: { type: 'text', name: 'A', codename: 'a' } }],
    });
    expect(body).toEqual({
      name: 'Article',
      codename: 'article',
      content_groups: [{ name: 'Main', codename: 'main' }],
      elements: [{ type: 'text', name: 'A', codename: 'a' }],
    });
  });
});

describe('problemsOf', () => {
  it('places POST problems at the element of their path, PATCH ones at the element of the result or the operation', () => {
    const posted = new ApiError(400, {
      message: 'The request body is invalid.',
      validation_errors: [
        { path: 'elements[1].maximum_text_length.value', message: 'must be a positive integer' },
        { path: 'name', message: 'is required' },
      ],
    });
    expect([...(problemsOf(posted, saved, null) ?? [])]).toEqual([
      [id(2), ['maximum_text_length.value: must be a positive integer']],
      [definitionKey, ['name: is required']],
    ]);
    const patched = new ApiError(400, {
      message: 'The request body is invalid.',
      validation_errors: [
        { path: '[0]', message: "Invalid operation with index '0': elements[2].codename: is taken" },
        { path: '[1]', message: "Invalid operation with index '1': The referenced object was not found." },
      ],
    });
    expect([...(problemsOf(patched, saved, [id(1), id(2)]) ?? [])]).toEqual([
      [id(3), ['codename: is taken']],
      [id(2), ['The referenced object was not found.']],
    ]);
  });
});
