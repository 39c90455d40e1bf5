export { buildDeliveryApp, type DeliveryAppOptions, type DeliveryChannel } from './app.ts';
export { deliveryHttpOptions, deliveryLimitSettings } from './settings.ts';
