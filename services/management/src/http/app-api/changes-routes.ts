import { Router, type Request, type Response } from 'express';
import { assertModelAccess, type ChangeEvent } from '@lectern/core';
import type { ChangeHub } from '../../changes/change-hub.ts';
import { locals } from '../context.ts';
import { methodNotAllowed } from '../errors.ts';

/*
 * `GET /app/api/projects/{projectId}/changes`: the project's change events as server-sent events,
 * for the editor app to refresh what it shows (docs/editor-api.md). One SSE event per change (the
 * outbox writes one event per channel a change affects; those are joined), `id` the sequence of
 * its last event. A comment line every `heartbeatMs` keeps idle connections (and proxies) open.
 * A client that reads slower than changes come is cut off once `maxBufferedBytes` wait for it,
 * after a `reset` event that tells it to reload, so memory stays bounded whatever the client does.
 * Nothing is replayed: a client that reconnects reloads what it shows.
 */

export interface ChangesRouterDeps {
  readonly changes: ChangeHub;
  /** Comment heartbeat interval (default 25 s, under the 60 s idle timeout of the listeners). */
  readonly heartbeatMs?: number;
  /** Bytes queued for one client beyond which it is cut off (default 256 KiB). */
  readonly maxBufferedBytes?: number;
}

/** The SSE `data` of one change: what the app needs to know which views to refresh. */
export interface ChangeMessage {
  readonly seq: number;
  readonly object_kind: string;
  readonly operation: string;
  readonly id: string | null;
  readonly codename?: string;
  readonly language?: { readonly id: string; readonly codename: string };
  readonly type?: { readonly id: string; readonly codename: string };
  readonly collection?: { readonly id: string };
  readonly workflow_step?: { readonly workflow_id: string; readonly step_id: string };
  readonly channels: string[];
  readonly occurred_at: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function messageOf(e: ChangeEvent): ChangeMessage {
  const p = e.payload;
  const codename = text(p['item_codename']) ?? text(p['codename']);
  const languageId = text(p['language_id']);
  const typeId = text(p['type_id']);
  const collectionId = text(p['collection_id']);
  const workflowId = text(p['workflow_id']);
  const stepId = text(p['step_id']);
  return {
    seq: e.seq,
    object_kind: e.objectKind,
    operation: e.operation,
    id: e.objectId,
    ...(codename === undefined ? {} : { codename }),
    ...(languageId === undefined ? {} : { language: { id: languageId, codename: text(p['language_codename']) ?? '' } }),
    ...(typeId === undefined ? {} : { type: { id: typeId, codename: text(p['type_codename']) ?? '' } }),
    ...(collectionId === undefined ? {} : { collection: { id: collectionId } }),
    ...(workflowId === undefined || stepId === undefined
      ? {}
      : { workflow_step: { workflow_id: workflowId, step_id: stepId } }),
    channels: [e.channel],
    occurred_at: e.occurredAt.toISOString(),
  };
}

/** One message per change: events of one batch naming the same object, operation and language are joined. */
export function changeMessages(events: readonly ChangeEvent[]): ChangeMessage[] {
  const byChange = new Map<string, ChangeMessage>();
  for (const e of events) {
    const key = [e.objectKind, e.operation, e.objectId ?? '', text(e.payload['language_id']) ?? ''].join('|');
    const found = byChange.get(key);
    if (!found) byChange.set(key, messageOf(e));
    else
      byChange.set(key, {
        ...found,
        seq: Math.max(found.seq, e.seq),
        channels: found.channels.includes(e.channel) ? found.channels : [...found.channels, e.channel],
      });
  }
  return [...byChange.values()];
}

const frame = (m: ChangeMessage) => `id: ${m.seq}\nevent: change\ndata: ${JSON.stringify(m)}\n\n`;

/** The stream of one request, from its headers to its end (client gone, too slow, or shutdown). */
function stream(req: Request, res: Response, deps: Required<ChangesRouterDeps>, projectId: string): void {
  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-store, no-transform');
  res.setHeader('x-accel-buffering', 'no'); // nginx and similar proxies: pass each event on at once
  // The connection ends with the stream (no keep-alive wait): a reconnect opens a new one anyway.
  res.setHeader('connection', 'close');
  const socket = req.socket;
  res.flushHeaders();
  res.write('retry: 3000\n: connected\n\n');
  let isEnded = false;
  const heartbeat = setInterval(() => send(': heartbeat\n\n'), deps.heartbeatMs);
  let stop = () => undefined as void;
  const end = (last?: string) => {
    if (isEnded) return;
    isEnded = true;
    clearInterval(heartbeat);
    stop();
    res.end(last);
    // A client that reads nothing is not waited for: its socket goes after a short grace.
    setTimeout(() => socket.destroy(), 5_000).unref();
  };
  const send = (chunk: string) => {
    if (isEnded) return;
    if (res.writableLength + chunk.length > deps.maxBufferedBytes) {
      end('event: reset\ndata: {"reason":"slow_client"}\n\n');
      return;
    }
    res.write(chunk);
  };
  req.on('close', () => end());
  stop = deps.changes.listen(
    projectId,
    (events) => send(changeMessages(events).map(frame).join('')),
    () => end(),
  );
}

/**
 * `GET /changes` under a project path (mergeParams). The actor must already be in `res.locals`
 * (the session or key middleware mounted before) and may read the project's content.
 */
export function changesRouter(deps: ChangesRouterDeps): Router {
  const settings: Required<ChangesRouterDeps> = {
    heartbeatMs: 25_000,
    maxBufferedBytes: 256 * 1024,
    ...deps,
  };
  const router = Router({ mergeParams: true });
  router
    .route('/changes')
    .get((req, res) => {
      const actor = locals(res).actor;
      if (!actor) throw new Error('changes route reached without authentication');
      const projectId = String((req.params as { projectId?: string }).projectId).toLowerCase();
      assertModelAccess(actor, projectId);
      stream(req, res, settings, projectId);
    })
    .all(methodNotAllowed);
  return router;
}
