export { createInProcessBus, type InProcessBusOptions } from './in-process-bus.ts';
export { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './relay.ts';
export { createChangeConsumer, type ChangeConsumer, type ChangeConsumerOptions } from './change-consumer.ts';
