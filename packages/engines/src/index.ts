/**
 * Where engines are opened (the composition floor): the service mains and the all-in-one shape
 * call these with their settings and the store's database, so no adapter opens another.
 */
export {
  deliveryIndexProblem,
  openDeliveryIndex,
  openReachableDeliveryIndex,
  openSearchDeliveryIndex,
  type OpenedDeliveryIndex,
} from './delivery-index.ts';
export { deliveryIndexSettings, type DeliveryIndexConfig } from './delivery-index-settings.ts';
export { isSearchRecs, openRecsIndex, openSearchRecs } from './recs-index.ts';
export { recsIndexSettings, type RecsIndexConfig } from './recs-index-settings.ts';
export {
  openDeliveryReadSide,
  openServiceCore,
  openServiceDeliveryIndex,
  openServiceRecsIndex,
  openServiceStore,
} from './service-start.ts';
