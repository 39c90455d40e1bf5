import { describe, expect, it } from 'vitest';
import {
  isOneOf,
  legacyListRules,
  webhookActions,
  webhookFilters,
  webhookObjectTypes,
  type WebhookAction,
  type WebhookEvent,
} from './webhook-vocabulary.ts';

/*
 * The vocabularies as Kontent.ai's references list them (management-api.md §2.11, SDK-JS
 * webhook-contracts; Learn's webhooks page, "Webhook triggers and events"). The type checks
 * (`@ts-expect-error`) fail the build (`tsc -b` checks tests) if a union stops refusing them.
 */
describe('webhook vocabulary', () => {
  it('lists the object types and each one’s actions and filters', () => {
    expect(webhookObjectTypes).toEqual(['content_item', 'content_type', 'taxonomy', 'asset', 'language']);
    expect(webhookActions.taxonomy).toEqual([
      'created',
      'metadata_changed',
      'deleted',
      'term_created',
      'term_changed',
      'term_deleted',
      'terms_moved',
    ]);
    expect(Object.keys(webhookFilters.content_item)).toEqual(['collections', 'content_types', 'languages']);
    expect(legacyListRules.workflow_step_changes.types).toEqual(['content_item_variant']);
  });

  it('types an action by its object type', () => {
    const termCreated: WebhookEvent = { objectType: 'taxonomy', action: 'term_created' };
    // @ts-expect-error an asset has no `published` action
    const assetPublished: WebhookEvent = { objectType: 'asset', action: 'published' };
    // @ts-expect-error `moved` is no action of any object type
    const moved: WebhookAction = 'moved';
    expect([termCreated.action, assetPublished.action, moved]).toEqual(['term_created', 'published', 'moved']);
  });

  it('tells a word of a vocabulary from anything else', () => {
    expect(isOneOf(webhookActions.language, 'deleted')).toBe(true);
    expect(isOneOf(webhookActions.language, 'term_created')).toBe(false);
    expect(isOneOf(webhookActions.language, ['deleted'])).toBe(false);
    expect(isOneOf(webhookActions.language, undefined)).toBe(false);
  });
});
