import { describe, expect, it } from 'vitest';
import { matchesTriggers, type NotificationSubject } from './trigger-match.ts';

const published: NotificationSubject = {
  objectType: 'content_item',
  action: 'published',
  slot: 'published',
  collectionId: 'c1',
  typeId: 't1',
  languageId: 'l1',
};

const itemTriggers = (section: Record<string, unknown>) => ({
  slot: 'published',
  events: 'specific',
  content_item: { enabled: true, actions: [{ action: 'published' }], ...section },
});

describe('matchesTriggers', () => {
  it('takes every event of its slot with events "all", and none of the other slot', () => {
    expect(matchesTriggers({ slot: 'published', events: 'all' }, published)).toBe(true);
    expect(matchesTriggers({ slot: 'preview', events: 'all' }, published)).toBe(false);
  });

  it('needs the section enabled and the action listed', () => {
    expect(matchesTriggers(itemTriggers({}), published)).toBe(true);
    expect(matchesTriggers(itemTriggers({ enabled: false }), published)).toBe(false);
    expect(matchesTriggers(itemTriggers({ actions: [{ action: 'unpublished' }] }), published)).toBe(false);
    // An asset notification (a content item action is no asset action: the compiler refuses it).
    expect(matchesTriggers(itemTriggers({}), { objectType: 'asset', action: 'created', slot: 'published' })).toBe(
      false,
    );
  });

  it('applies every non-empty filter list by id', () => {
    expect(matchesTriggers(itemTriggers({ filters: { content_types: [{ id: 't1' }] } }), published)).toBe(true);
    expect(matchesTriggers(itemTriggers({ filters: { content_types: [{ id: 't2' }] } }), published)).toBe(false);
    expect(matchesTriggers(itemTriggers({ filters: { collections: [], languages: [{ id: 'l1' }] } }), published)).toBe(
      true,
    );
    expect(matchesTriggers(itemTriggers({ filters: { languages: [{ id: 'l2' }] } }), published)).toBe(false);
  });

  it('follows a workflow step change only to the steps listed in transition_to', () => {
    const moved: NotificationSubject = {
      ...published,
      action: 'workflow_step_changed',
      slot: 'preview',
      stepTo: { workflowId: 'w', stepId: 'review' },
    };
    const to = (stepId: string) => ({
      slot: 'preview',
      events: 'specific',
      content_item: {
        enabled: true,
        actions: [
          {
            action: 'workflow_step_changed',
            transition_to: [{ workflow_identifier: { id: 'w' }, step_identifier: { id: stepId } }],
          },
        ],
      },
    });
    expect(matchesTriggers(to('review'), moved)).toBe(true);
    expect(matchesTriggers(to('draft'), moved)).toBe(false);
  });
});
