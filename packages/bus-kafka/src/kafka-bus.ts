import type { EventBus } from '@lectern/core';

export interface KafkaBusOptions {
  /** Bootstrap brokers, `host:port`. */
  readonly brokers: readonly string[];
  /** Topic of change events. Default `lectern.change-events`. */
  readonly topic?: string;
  /** Partitions of the topic when this client creates it. Default 16. */
  readonly partitions?: number;
  /** Client id in broker logs. Default `lectern`. */
  readonly clientId?: string;
  readonly onError?: (error: unknown) => void;
}

/** The change-event bus of the cluster shape, on Apache Kafka (kafkajs). */
export function createKafkaBus(_options: KafkaBusOptions): EventBus {
  throw new Error('not built yet');
}
