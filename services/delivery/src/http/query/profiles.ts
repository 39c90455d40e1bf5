import { itemSystemProperties, type QueryProfile } from './parse-query.ts';

/** What each endpoint accepts (reference 1.2, 1.3). */
export const profiles = {
  items: {
    params: ['language', 'elements', 'excludeElements', 'order', 'depth', 'skip', 'limit', 'includeTotalCount'],
    systemFilters: itemSystemProperties,
    isElementFilterAllowed: true,
    systemOrder: itemSystemProperties,
  },
  /** The SDK may add filters (`system.workflow_step[neq]=archived`) to one-item queries; they apply. */
  item: {
    params: ['language', 'elements', 'excludeElements', 'depth'],
    systemFilters: itemSystemProperties,
    isElementFilterAllowed: true,
    systemOrder: [],
  },
  itemsFeed: {
    params: ['language', 'elements', 'excludeElements', 'order', 'depth'],
    systemFilters: itemSystemProperties,
    isElementFilterAllowed: true,
    systemOrder: itemSystemProperties,
  },
  usedIn: {
    params: ['language'],
    systemFilters: ['type', 'collection', 'workflow', 'workflow_step', 'language'],
    isElementFilterAllowed: false,
    systemOrder: [],
  },
  types: {
    params: ['elements', 'excludeElements', 'skip', 'limit'],
    systemFilters: [],
    isElementFilterAllowed: false,
    systemOrder: [],
  },
  type: { params: ['elements', 'excludeElements'], systemFilters: [], isElementFilterAllowed: false, systemOrder: [] },
  none: { params: [], systemFilters: [], isElementFilterAllowed: false, systemOrder: [] },
  taxonomies: { params: ['skip', 'limit'], systemFilters: [], isElementFilterAllowed: false, systemOrder: [] },
  languages: {
    params: ['skip', 'limit', 'order'],
    systemFilters: ['id', 'name', 'codename'],
    isElementFilterAllowed: false,
    systemOrder: ['id', 'name', 'codename'],
  },
} as const satisfies Record<string, QueryProfile>;
