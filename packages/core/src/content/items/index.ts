export { addItem, deleteItem, getItem, listItems, upsertItem, type ItemInput } from './items.ts';
export { itemJson, type ContentItemJson, type ContentItemRecord } from './item-record.ts';
export { itemNameMax } from './item-body.ts';
export type {
  ContentItemRepository,
  KeyedPage,
  PageKey,
  PageRequest,
  ScheduledJobRepository,
  VariantRepository,
} from '../../ports/store.ts';
