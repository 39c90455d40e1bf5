/**
 * System properties kept as columns of `delivery_documents` (the other values are rows: see
 * `documentRows` in core): the same string in the document
 * (`system.id` is the item id).
 */
export const systemColumns = {
  'system.id': 'item_id',
  'system.name': 'name',
  'system.codename': 'codename',
  'system.language': 'language',
  'system.type': 'type',
  'system.collection': 'collection',
  'system.last_modified': 'last_modified',
} as const;
export type SystemColumn = (typeof systemColumns)[keyof typeof systemColumns];
