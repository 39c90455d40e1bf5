export { buildDeliveryApp, type DeliveryAppOptions, type DeliveryChannel } from './app.ts';
export { deliveryHttpOptions, deliveryLimitSettings } from './settings.ts';
// The read path the GraphQL listener shares (watermarks, response cache, authentication, limits).
export { createDeliveryContext, type DeliveryContext, type DeliveryHttpOptions } from './http/register-routes.ts';
export { serve, serveFromCache, type ReadScope } from './http/shared/serve.ts';
export { languageChain } from './http/shared/languages.ts';
