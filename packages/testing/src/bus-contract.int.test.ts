import { createInProcessBus, type EventBus, type EventSubscription } from '@lectern/core';
import { describeBusContract } from './bus-contract.ts';
import { openPgliteStore } from '@lectern/store-sql';

/** A client of a shared in-process bus: closing it stops only its own subscriptions. */
function clientOf(bus: EventBus): EventBus {
  const own: EventSubscription[] = [];
  return {
    publish: (events) => bus.publish(events),
    lag: (group) => bus.lag(group),
    async subscribe(options) {
      const subscription = await bus.subscribe(options);
      own.push(subscription);
      return subscription;
    },
    async close() {
      await Promise.all(own.map((s) => s.stop()));
    },
  };
}

describeBusContract({
  adapter: 'the in-process bus',
  openSpace: () => {
    const bus = createInProcessBus({ retryDelayMs: 20 });
    return Promise.resolve({ connect: () => Promise.resolve(clientOf(bus)), cleanup: () => bus.close() });
  },
  openStore: () => openPgliteStore(),
});
