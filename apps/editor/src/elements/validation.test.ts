// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { TypeElement } from './model.ts';
import { checkElement, mapValidationErrors } from './validation.ts';

const text: TypeElement = {
  id: 't',
  codename: 'title',
  type: 'text',
  is_required: true,
  maximum_text_length: { value: 2, applies_to: 'words' },
  validation_regex: { regex: '^[a-z ]+$', flags: 'i', validation_message: 'Letters only.', is_active: true },
};
const links: TypeElement = {
  id: 'l',
  codename: 'links',
  type: 'modular_content',
  item_count_limit: { value: 2, condition: 'exactly' },
};

describe('checkElement (before Save)', () => {
  it("gives what the upsert refuses as errors, in the API's words", () => {
    expect(checkElement(text, { element: { id: 't' }, value: 'one two 3' }).errors).toEqual([
      'The value is longer than 2 words.',
      'Letters only.',
    ]);
    expect(
      checkElement(links, { element: { id: 'l' }, value: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] }).errors,
    ).toEqual(['The element takes exactly 2 items; it has 3.']);
  });

  it('gives what only publishing refuses as notices, which do not stop Save', () => {
    expect(checkElement(text, { element: { id: 't' }, value: '  ' })).toEqual({
      errors: [],
      notices: ["The element 'title' is required. Give it a value before publishing."],
    });
    expect(checkElement(links, { element: { id: 'l' }, value: [{ id: 'a' }] })).toEqual({
      errors: [],
      notices: ['The element takes exactly 2 items; it has 1.'],
    });
    expect(checkElement(links, { element: { id: 'l' }, value: [] })).toEqual({ errors: [], notices: [] });
  });

  it('counts rich text by its text, and an inactive or broken pattern passes', () => {
    const rich: TypeElement = {
      id: 'r',
      codename: 'r',
      type: 'rich_text',
      maximum_text_length: { value: 5, applies_to: 'characters' },
    };
    expect(checkElement(rich, { element: { id: 'r' }, value: '<p><strong>Hello</strong></p>' }).errors).toEqual([]);
    expect(checkElement(rich, { element: { id: 'r' }, value: '<p>Hello!</p>' }).errors).toEqual([
      'The value is longer than 5 characters.',
    ]);
    const loose = {
      ...text,
      is_required: false,
      maximum_text_length: null,
      validation_regex: { regex: '(', is_active: true },
    };
    expect(checkElement(loose, { element: { id: 't' }, value: '42' }).errors).toEqual([]);
  });
});

describe('mapValidationErrors (after Save)', () => {
  const defs = [text, links];
  const sent = [
    { element: { id: 'l' }, value: [] },
    { element: { id: 't' }, value: 'x' },
  ];
  it('places errors at the element their path or message names', () => {
    const mapped = mapValidationErrors(
      {
        message: 'Invalid.',
        validation_errors: [
          { path: 'elements[1].value', message: 'must be a string or null' },
          { path: 'elements[0].components[0].elements[0].value', message: 'nested' },
          { path: 'elements.title', message: "The element 'title' is required. Give it a value before publishing." },
          { message: "Element 'links' has a problem." },
          { path: 'workflow', message: 'Elsewhere.' },
        ],
      },
      sent,
      defs,
    );
    expect(Object.fromEntries(mapped.byElement)).toEqual({
      t: ['must be a string or null', "The element 'title' is required. Give it a value before publishing."],
      l: ['nested', "Element 'links' has a problem."],
    });
    expect(mapped.general).toEqual(['workflow: Elsewhere.']);
  });

  it('keeps the message of a refusal without validation_errors', () => {
    expect(mapValidationErrors({ message: 'No.' }, sent, defs).general).toEqual(['No.']);
  });
});
