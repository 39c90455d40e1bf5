import type { SignalTopic, Signals } from '@lectern/core';

/** Signals in memory for tests of their listeners: `emit` calls every subscriber of the topic. */
export function memorySignals(): Signals & {
  emit(topic: SignalTopic, payload: string): void;
  reset(): void;
} {
  const subscribers = new Set<{ topic: SignalTopic; listener: (p: string) => void; onReset?: () => void }>();
  return {
    async subscribe(subscriber) {
      subscribers.add(subscriber);
      return async () => {
        subscribers.delete(subscriber);
      };
    },
    emit(topic, payload) {
      for (const s of subscribers) if (s.topic === topic) s.listener(payload);
    },
    reset() {
      for (const s of subscribers) s.onReset?.();
    },
  };
}
