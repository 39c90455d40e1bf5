import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  AuditRow,
  ChangeChannel,
  ChangeEvent,
  NewChangeEvent,
  Outbox,
  OutboxRelayRepository,
} from '@lectern/core';
import { auditColumns } from './audit-repository.ts';
import type { Database, OutboxEventsTable } from './schema.ts';
import { channelOf } from './signals.ts';

function toEvent(row: Selectable<OutboxEventsTable>): ChangeEvent {
  return {
    projectId: row.project_id,
    seq: Number(row.seq),
    objectKind: row.object_kind,
    operation: row.operation,
    objectId: row.object_id,
    channel: row.channel as ChangeChannel,
    payload: row.payload,
    occurredAt: new Date(row.occurred_at),
  };
}

/**
 * Appends `events` of one project (at least one) in one statement: the upsert locks the project's
 * counter row until commit, so writers of one project serialize here and sequences are gap-free
 * and follow commit order (docs/events.md). The statement takes the numbers, inserts the events
 * and announces them.
 */
async function appendEvents(
  db: Kysely<Database>,
  input: { projectId: string; events: readonly NewChangeEvent[]; occurredAt: Date },
): Promise<ChangeEvent[]> {
  const { projectId, events, occurredAt } = input;
  const count = events.length;
  const { rows: counter } = await sql<{ last_seq: string | number }>`
    with counter as (
      insert into project_sequences (project_id, last_seq) values (${projectId}::uuid, ${count}::int8)
      on conflict (project_id) do update set last_seq = project_sequences.last_seq + ${count}::int8
      returning last_seq
    ), appended as (
      insert into outbox_events (project_id, seq, object_kind, operation, object_id, channel, payload, occurred_at)
      select ${projectId}::uuid, counter.last_seq - ${count}::int8 + e.ord, e.value->>'object_kind', e.value->>'operation',
             e.value->>'object_id', e.value->>'channel', e.value->'payload', ${occurredAt}::timestamptz
      from counter, jsonb_array_elements(${JSON.stringify(events.map(eventRecord))}::jsonb) with ordinality as e(value, ord)
    )
    select last_seq, pg_notify(${channelOf('committed')}, ${projectId}::text || ':' || last_seq) from counter`.execute(
    db,
  );
  const first = Number(counter[0]?.last_seq) - count + 1;
  return events.map((e, i) => ({ ...e, projectId, seq: first + i, occurredAt }));
}

/**
 * The end of a transaction, in one statement: its deferred events as one pending row per batch
 * (migration 0027's trigger numbers them while the transaction commits, in this order, so the
 * counter's lock is held only through the commit) and its audit entries.
 */
export async function appendPendingEvents(
  db: Kysely<Database>,
  input: {
    batches: readonly { projectId: string; events: readonly NewChangeEvent[]; occurredAt: Date }[];
    auditRows: readonly AuditRow[];
  },
): Promise<void> {
  const batches = input.batches.map((b) => ({
    project_id: b.projectId,
    events: b.events.map(eventRecord),
    occurred_at: b.occurredAt.toISOString(),
  }));
  const audited =
    input.auditRows.length === 0
      ? sql``
      : sql`, audited as (
          insert into audit_log (${sql.join(auditColumnNames.map((c) => sql.ref(c)))})
          select ${sql.join(auditColumnNames.map((c) => sql.ref(`a.${c}`)))}
          from jsonb_populate_recordset(null::audit_log, ${JSON.stringify(input.auditRows.map(auditRecord))}::jsonb) a
        )`;
  await sql`
    with pending as (
      insert into outbox_pending (project_id, events, occurred_at)
      select (b.value->>'project_id')::uuid, b.value->'events', (b.value->>'occurred_at')::timestamptz
      from jsonb_array_elements(${JSON.stringify(batches)}::jsonb) with ordinality as b(value, ord)
      order by b.ord
    )${audited}
    select 1`.execute(db);
}

/** An event as the JSON object the statements above read. */
const eventRecord = (e: NewChangeEvent) => ({
  object_kind: e.objectKind,
  operation: e.operation,
  object_id: e.objectId,
  channel: e.channel,
  payload: e.payload,
});

/** An entry as a JSON object `jsonb_populate_recordset` reads as an `audit_log` row. */
const auditRecord = (r: AuditRow) => ({ ...auditColumns(r), summary: r.summary });

/** The columns of `audit_log` an entry fills (its id is the table's own). */
const auditColumnNames = Object.keys(
  auditColumns({
    projectId: null,
    occurredAt: new Date(0),
    actor: { type: 'system', userId: null, keyId: null },
    via: 'system',
    requestId: null,
    action: '',
    object: { kind: '', id: null, codename: null, languageId: null, languageCodename: null },
    summary: {},
  }),
);

export function outbox(db: Kysely<Database>): Outbox {
  return {
    async append(projectId, events, occurredAt) {
      if (events.length === 0) return [];
      return appendEvents(db, { projectId, events, occurredAt });
    },
    appendAtCommit() {
      // Store.transaction replaces this; anywhere else there is no commit to defer to.
      throw new Error('appendAtCommit is for Store.transaction only');
    },
    async readAfter({ projectId, afterSeq, limit }) {
      const rows = await db
        .selectFrom('outbox_events')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map(toEvent);
    },
    async latestSeq(projectId) {
      const row = await db
        .selectFrom('project_sequences')
        .select('last_seq')
        .where('project_id', '=', projectId)
        .executeTakeFirst();
      return row ? Number(row.last_seq) : 0;
    },
  };
}

export function outboxRelay(db: Kysely<Database>): OutboxRelayRepository {
  return {
    async claim({ owner, now, until, limit }) {
      // Projects ahead of their relay progress whose lease is free; the upsert re-checks the lease
      // under the row lock, so of two relays racing for a project only one gets it.
      const leaseIsFree = sql<boolean>`(outbox_relay.lease_expires_at is null or outbox_relay.lease_expires_at < ${now} or outbox_relay.lease_owner = ${owner})`;
      const rows = await sql<{ project_id: string; relayed_seq: string | number }>`
        insert into outbox_relay (project_id, relayed_seq, lease_owner, lease_expires_at)
        select s.project_id, coalesce(outbox_relay.relayed_seq, 0), ${owner}, ${until}
        from project_sequences s left join outbox_relay on outbox_relay.project_id = s.project_id
        where s.last_seq > coalesce(outbox_relay.relayed_seq, 0) and ${leaseIsFree}
        order by s.project_id
        limit ${limit}
        on conflict (project_id) do update
          set lease_owner = excluded.lease_owner, lease_expires_at = excluded.lease_expires_at
          where ${leaseIsFree}
        returning project_id, relayed_seq`.execute(db);
      return rows.rows.map((r) => ({ projectId: r.project_id, relayedSeq: Number(r.relayed_seq) }));
    },
    async advance({ projectId, owner, seq, until }) {
      const result = await db
        .updateTable('outbox_relay')
        .set({ relayed_seq: sql`greatest(relayed_seq, ${seq})`, lease_expires_at: until })
        .where('project_id', '=', projectId)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release({ projectId, owner }) {
      await db
        .updateTable('outbox_relay')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('project_id', '=', projectId)
        .where('lease_owner', '=', owner)
        .execute();
    },
    async pending() {
      const row = await sql<{ events: string | number | null; oldest_at: Date | string | null }>`
        select sum(s.last_seq - coalesce(r.relayed_seq, 0)) as events,
               min(e.occurred_at) as oldest_at
        from project_sequences s
        left join outbox_relay r on r.project_id = s.project_id
        left join outbox_events e on e.project_id = s.project_id and e.seq = coalesce(r.relayed_seq, 0) + 1
        where s.last_seq > coalesce(r.relayed_seq, 0)`.execute(db);
      const first = row.rows[0];
      return {
        events: Number(first?.events ?? 0),
        oldestAt: first?.oldest_at == null ? null : new Date(first.oldest_at),
      };
    },
  };
}
