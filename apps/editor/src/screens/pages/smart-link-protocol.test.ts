import { describe, expect, it } from 'vitest';
import type { TypeElement } from '../../elements/model.ts';
import { addInitialAnswer, insertAt, readSiteMessage, updateMessageOf } from './smart-link-protocol.ts';

describe('Smart Link host: reading the site messages', () => {
  it('reads an element click, an add button and the hello; ignores anything else', () => {
    expect(
      readSiteMessage({
        type: 'kontent-smart-link:element:clicked',
        data: { projectId: 'p', languageCodename: 'en', itemId: 'i', elementCodename: 'title' },
        metadata: { elementRect: {} },
      }),
    ).toEqual({ kind: 'edit', itemId: 'i', elementCodename: 'title', languageCodename: 'en', projectId: 'p' });
    expect(readSiteMessage({ type: 'kontent-smart-link:initialized', data: {}, requestId: 'r1' })).toEqual({
      kind: 'initialized',
      requestId: 'r1',
    });
    expect(
      readSiteMessage({
        type: 'kontent-smart-link:add:action',
        data: {
          projectId: 'p',
          languageCodename: 'en',
          itemId: 'i',
          elementCodename: 'related',
          action: 'InsertLinkedItem',
          insertPosition: { placement: 'after', targetId: 'x' },
        },
      }),
    ).toMatchObject({ kind: 'add-action', insertPosition: { placement: 'after', targetId: 'x' } });
    expect(readSiteMessage({ type: 'kontent-smart-link:element:clicked', data: {} })).toBeNull();
    expect(readSiteMessage({ type: 'something-else', data: { itemId: 'i' } })).toBeNull();
    expect(readSiteMessage('kontent-smart-link:initialized')).toBeNull();
    expect(readSiteMessage(null)).toBeNull();
  });

  it('answers an add button with the element kind and the permissions as a Map', () => {
    const linked = { id: 'e', codename: 'related', type: 'modular_content' } as TypeElement;
    const answer = addInitialAnswer(linked, true, false);
    expect(answer.elementType).toBe('LinkedItems');
    expect(answer.permissions).toBeInstanceOf(Map);
    expect(answer.permissions.get('edit')).toBe('Ok');
    expect(addInitialAnswer(linked, false, true)).toMatchObject({ isParentPublished: true });
    expect(addInitialAnswer(linked, false, false).permissions.get('edit')).toBe('PermissionMissing');
    expect(addInitialAnswer(undefined, true, false).elementType).toBe('Unknown');
  });

  it('inserts at the start, the end, before or after an item (an unknown target: the end)', () => {
    expect(insertAt(['a', 'b'], ['n'], { placement: 'start' })).toEqual(['n', 'a', 'b']);
    expect(insertAt(['a', 'b'], ['n'], { placement: 'end' })).toEqual(['a', 'b', 'n']);
    expect(insertAt(['a', 'b'], ['n'], { placement: 'before', targetId: 'b' })).toEqual(['a', 'n', 'b']);
    expect(insertAt(['a', 'b'], ['n'], { placement: 'after', targetId: 'a' })).toEqual(['a', 'n', 'b']);
    expect(insertAt(['a', 'b'], ['n'], { placement: 'after', targetId: 'zz' })).toEqual(['a', 'b', 'n']);
    expect(insertAt(['a', 'b'], ['a'], { placement: 'end' })).toEqual(['b', 'a']);
  });

  it('sends form values in Delivery shape: text, number, choices by codename, linked items by codename', () => {
    const defs = [
      { id: 't', codename: 'title', type: 'text' },
      { id: 'n', codename: 'count', type: 'number' },
      { id: 'm', codename: 'colour', type: 'multiple_choice', options: [{ id: 'o1', name: 'Red', codename: 'red' }] },
      { id: 'l', codename: 'related', type: 'modular_content' },
      { id: 'g', codename: 'guide', type: 'guidelines' },
    ] as TypeElement[];
    const message = updateMessageOf({
      projectId: 'p',
      item: { id: 'i', codename: 'home' },
      language: { id: 'L', codename: 'en' },
      defs,
      values: [
        { element: { id: 't' }, value: 'Hi' },
        { element: { id: 'n' }, value: 3 },
        { element: { id: 'm' }, value: [{ id: 'o1' }] },
        { element: { id: 'l' }, value: [{ id: 'x' }, { id: 'unknown' }] },
        { element: { id: 'g' }, value: null },
      ],
      ctx: { codenameOf: (id) => (id === 'x' ? 'about_us' : null) },
    });
    expect(message).toEqual({
      projectId: 'p',
      variant: { id: 'L', codename: 'en' },
      item: { id: 'i', codename: 'home' },
      elements: [
        { element: { id: 't', codename: 'title' }, type: 'text', data: { value: 'Hi' } },
        { element: { id: 'n', codename: 'count' }, type: 'number', data: { value: 3 } },
        {
          element: { id: 'm', codename: 'colour' },
          type: 'multiple_choice',
          data: { value: [{ name: 'Red', codename: 'red' }] },
        },
        {
          element: { id: 'l', codename: 'related' },
          type: 'modular_content',
          data: { value: ['about_us'], linkedItems: [] },
        },
      ],
    });
  });
});
