import type { DeliveryChannel, DeliveryIndexReader } from '@lectern/core';

/** The slice of a Delivery read scope the resolvers use: one project and channel at one watermark. */
export interface ReadScopeLike {
  readonly projectId: string;
  readonly channel: DeliveryChannel;
  readonly index: DeliveryIndexReader;
  /** The requested language (null: the default) and its fallbacks, as the REST Delivery API reads them. */
  languageChain(requested: string | null, isFallbackDisabled: boolean): Promise<string[]>;
}
