export { createKafkaBus, type KafkaBusOptions, type KafkaLogEntry } from './kafka-bus.ts';
