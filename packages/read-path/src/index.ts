// The Delivery read path that the Delivery REST and GraphQL listeners share: held watermarks and
// sequences, cached authentication, the response cache, uncached rate limits, the HTTP options and
// their settings, the language chain (docs/read-path.md).
export { createDeliveryContext, type DeliveryContext, type ModelAt } from './delivery-context.ts';
export type { DeliveryHttpOptions } from './http-options.ts';
export { deliveryHttpOptions, deliveryLimitSettings } from './limit-settings.ts';
export { serve, serveFromCache, projectIdOf, type Answer, type ReadScope, type ServeOptions } from './serve.ts';
export { languageChain } from './language-chain.ts';
export { invalidQuery } from './invalid-query.ts';
export { createFastHit } from './fast-hit.ts';
