import type { EventBus } from '@lectern/core';
import { createKafkaBus } from './kafka-bus.ts';

/** The two levels of a service's logger (pino's) that the bus writes to. */
export interface BusLogger {
  error(fields: { err: unknown }, message: string): void;
  warn(fields: { err: unknown }, message: string): void;
}

/**
 * The bus of a cluster service: client id `lectern-<service>`, errors that no caller sees logged
 * as errors, and consumer restarts kafkajs recovers from by itself logged as warnings.
 */
export function createServiceBus(options: {
  brokers: readonly string[];
  topic: string;
  service: string;
  logger: BusLogger;
}): EventBus {
  const { logger } = options;
  return createKafkaBus({
    brokers: options.brokers,
    topic: options.topic,
    clientId: `lectern-${options.service}`,
    onError: (err) => logger.error({ err }, 'Kafka client error'),
    onWarning: (err) => logger.warn({ err }, 'Kafka consumer restarting after a retriable error'),
  });
}
