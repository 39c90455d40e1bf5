import type { ChangeEvent } from '../domain/change-event.ts';

/**
 * Handles one delivery: events of ONE project, ascending by `seq`. Delivery is at-least-once, so
 * a delivery may repeat events already handled (after a crash, a rebalance or a failed call);
 * consumers apply an event only when its sequence is newer than what they have. A handler that
 * rejects gets the same events again later; nothing after them in the project is delivered to
 * the group first.
 */
export type EventHandler = (events: readonly ChangeEvent[]) => Promise<void>;

export interface EventSubscription {
  /**
   * Leaves the group. Resolves after the handler call under way has finished and what was handled
   * is committed; events not handled yet go to the group's other members, or to the next member
   * that joins.
   */
  stop(): Promise<void>;
}

/**
 * The change-event bus (DESIGN.md, write path step 3): the outbox relay publishes every committed
 * event to it; consumers (indexer, webhooks) read it in consumer groups. Embedded: in process.
 * Cluster: Kafka, keyed by project id, so a project's events stay in order.
 */
export interface EventBus {
  /**
   * Publishes events of one project, in order. Resolves once the bus holds them (Kafka:
   * acknowledged by every in-sync replica); rejects when it could not, and then the caller
   * publishes them again. Events published by one call precede those of the caller's next call.
   */
  publish(events: readonly ChangeEvent[]): Promise<void>;
  /**
   * Joins consumer group `group`. Every group receives every event; within a group each event
   * goes to one member at a time, and a project's events always reach the handler in order. A
   * group that has never committed starts with the oldest event the bus still holds.
   */
  subscribe(options: { group: string; handle: EventHandler }): Promise<EventSubscription>;
  /** Events the bus holds that the group has not handled yet (consumer lag). */
  lag(group: string): Promise<number>;
  /** Stops every subscription of this client and disconnects. */
  close(): Promise<void>;
}
