export { buildDeliveryApp, type DeliveryAppOptions, type DeliveryChannel } from './app.ts';
