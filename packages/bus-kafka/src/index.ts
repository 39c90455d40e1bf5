export { createKafkaBus, type KafkaBusOptions, type KafkaLogEntry } from './kafka-bus.ts';
export { createServiceBus, type BusLogger } from './service-bus.ts';
