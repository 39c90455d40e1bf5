import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { SignalTopic, Signals } from '@lectern/core';

/** The PostgreSQL channel of a topic. */
export const channelOf = (topic: SignalTopic) => `lectern_${topic}`;

/**
 * `select pg_notify(…)`: run it inside the transaction of the change it announces (PostgreSQL
 * delivers it at commit, and drops it on rollback).
 */
export function notifySql(topic: SignalTopic, payload: string): RawBuilder<unknown> {
  return sql`select pg_notify(${channelOf(topic)}, ${payload})`;
}

export async function notify<DB>(db: Kysely<DB>, topic: SignalTopic, payload: string): Promise<void> {
  await notifySql(topic, payload).execute(db);
}

interface Subscriber {
  readonly topic: SignalTopic;
  readonly listener: (payload: string) => void;
  readonly onReset?: () => void;
}

/** Signals on PGlite: its LISTEN delivers the notifications of commits on the same instance. */
export function pgliteSignals(pglite: PGlite): Signals {
  return {
    async subscribe({ topic, listener }) {
      const unlisten = await pglite.listen(channelOf(topic), listener);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
  };
}

/**
 * Signals on PostgreSQL: one dedicated connection LISTENs to every subscribed channel. When it
 * drops, it reconnects (after 0.5 s, then up to 5 s apart), listens again and calls every
 * subscriber's `onReset`, since notifications sent meanwhile are lost.
 */
export function postgresSignals(options: { connectionString: string; onError?: (error: unknown) => void }): Signals & {
  close(): Promise<void>;
} {
  const subscribers = new Set<Subscriber>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let isClosed = false;
  let retryMs = 500;

  const channels = () => new Set([...subscribers].map((s) => channelOf(s.topic)));

  const connect = (): Promise<pg.Client> => {
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: options.connectionString });
      next.on('notification', (message) => {
        for (const s of subscribers) {
          if (channelOf(s.topic) === message.channel) s.listener(message.payload ?? '');
        }
      });
      next.on('error', (error) => {
        options.onError?.(error);
        void dropped(next);
      });
      next.on('end', () => void dropped(next));
      await next.connect();
      for (const channel of channels()) await next.query(`listen ${channel}`);
      client = next;
      retryMs = 500;
      return next;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const dropped = async (which: pg.Client) => {
    if (client !== which || isClosed) return;
    client = null;
    await which.end().catch(() => undefined);
    while (!isClosed && client === null) {
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
      retryMs = Math.min(retryMs * 2, 5_000);
      try {
        await connect();
        for (const s of subscribers) s.onReset?.();
      } catch (error) {
        options.onError?.(error);
      }
    }
  };

  return {
    async subscribe(subscriber) {
      const isNewChannel = !channels().has(channelOf(subscriber.topic));
      subscribers.add(subscriber);
      const current = client ?? (await connect());
      if (isNewChannel && client === current) await current.query(`listen ${channelOf(subscriber.topic)}`);
      return async () => {
        subscribers.delete(subscriber);
      };
    },
    async close() {
      isClosed = true;
      subscribers.clear();
      const open = client;
      client = null;
      await open?.end().catch(() => undefined);
    },
  };
}
