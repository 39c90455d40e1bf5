import type { ItemQuery } from '@lectern/core';

/**
 * The query of every item of a project in the production channel, in English without fallbacks,
 * by codename, without a total count; `overrides` changes any part of it.
 */
export function everyItem(projectId: string, overrides: Partial<ItemQuery> = {}): ItemQuery {
  return {
    projectId,
    channel: 'production',
    languages: ['en'],
    filters: [],
    order: null,
    skip: 0,
    limit: null,
    isTotalCountNeeded: false,
    ...overrides,
  };
}
