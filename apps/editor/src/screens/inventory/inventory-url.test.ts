import { describe, expect, it } from 'vitest';
import { defaultView, filterBody, parseView, serializeView, type InventoryView } from './inventory-url.ts';

const typeId = '11111111-1111-4111-8111-111111111111';
const workflowId = '00000000-0000-0000-0000-000000000000';
const stepId = '22222222-2222-4222-8222-222222222222';

describe('the inventory view in the URL', () => {
  it('round-trips every filter, the search and the order', () => {
    const view: InventoryView = {
      search: 'café & co',
      types: [typeId],
      collections: [workflowId],
      steps: [`${workflowId}:${stepId}`],
      contributor: 'me',
      states: ['published', 'not_published_yet'],
      sort: 'name',
      direction: 'asc',
    };
    expect(parseView(serializeView(view))).toEqual(view);
    expect(serializeView(defaultView)).toBe('');
    expect(parseView('')).toEqual(defaultView);
  });

  it('drops what is malformed instead of failing', () => {
    const view = parseView(
      `types=${typeId},nope,${typeId}&steps=a:b,${workflowId}:${stepId}:x&states=gone&sort=evil&dir=up&contributors=all`,
    );
    expect(view).toEqual({ ...defaultView, types: [typeId] });
  });

  it('asks the filter route for exactly the chosen filters, grouped by workflow', () => {
    const view = { ...parseView(`q=%20news%20&steps=${workflowId}:${stepId}&contributors=none&sort=due_date&dir=asc`) };
    expect(filterBody(view, { languageCodename: 'en-US', isDefaultLanguage: false, userId: typeId })).toEqual({
      filters: {
        language: { codename: 'en-US' },
        completion_statuses: ['unfinished', 'ready', 'not_translated', 'all_done'],
        search_phrase: 'news',
        workflow_steps: [{ workflow_identifier: { id: workflowId }, step_identifiers: [{ id: stepId }] }],
        has_no_contributors: true,
      },
      order: { by: 'due_date', direction: 'asc' },
    });
    expect(
      filterBody(
        { ...defaultView, contributor: 'me' },
        { languageCodename: 'en-US', isDefaultLanguage: true, userId: typeId },
      ).filters,
    ).toEqual({
      language: { codename: 'en-US' },
      contributors: [{ id: typeId }],
    });
  });
});
