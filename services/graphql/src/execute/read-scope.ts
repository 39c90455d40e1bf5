import type { DeliveryChannel, DeliveryIndexReader, ReadPin } from '@lectern/core';

/** The slice of a Delivery read scope the resolvers use: one project and channel at one watermark. */
export interface ReadScopeLike {
  readonly projectId: string;
  readonly channel: DeliveryChannel;
  readonly index: DeliveryIndexReader;
  /** The watermark of the whole answer, when held: every read of one query reads one state. */
  readonly pin?: ReadPin | undefined;
  /** The requested language (null: the default) and its fallbacks, as the REST Delivery API reads them. */
  languageChain(requested: string | null, isFallbackDisabled: boolean): Promise<string[]>;
}
