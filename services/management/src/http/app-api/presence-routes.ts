import { Router, type Request, type Response } from 'express';
import { beatPresence, leavePresence, readPresence, type CoreDeps, type PresenceJson } from '@lectern/core';
import type { PresenceHub } from '../../presence/presence-hub.ts';
import { locals } from '../context.ts';
import { methodNotAllowed } from '../errors.ts';

/*
 * Presence in the editor (issue 31, docs/editor-api.md "Presence"), under a project path:
 * - `POST /presence` `{item_id, language_id, client_id, element}`: a tab's heartbeat (204);
 * - `DELETE /presence/{client_id}`: the tab left the item (204);
 * - `GET /presence?item_id=&language_id=`: server-sent `presence` events, the variant's presence
 *   now and after every change (read from the store by the process's hub, so any replica's
 *   heartbeats show).
 */

export interface PresenceRouterDeps {
  readonly core: CoreDeps;
  readonly presence: PresenceHub;
  /** Comment heartbeat interval (default 25 s). */
  readonly heartbeatMs?: number;
}

const frame = (p: PresenceJson) => `event: presence\ndata: ${JSON.stringify(p)}\n\n`;

function projectIdOf(req: Request): string {
  return String((req.params as { projectId?: string }).projectId).toLowerCase();
}

function actorOf(res: Response) {
  const actor = locals(res).actor;
  if (!actor) throw new Error('presence route reached without authentication');
  return actor;
}

function stream(req: Request, res: Response, deps: PresenceRouterDeps, first: PresenceJson, projectId: string): void {
  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-store, no-transform');
  res.setHeader('x-accel-buffering', 'no');
  res.setHeader('connection', 'close');
  res.flushHeaders();
  res.write(`retry: 3000\n\n${frame(first)}`);
  const socket = req.socket;
  let isEnded = false;
  let stop = () => undefined as void;
  const heartbeat = setInterval(() => send(': heartbeat\n\n'), deps.heartbeatMs ?? 25_000);
  const end = () => {
    if (isEnded) return;
    isEnded = true;
    clearInterval(heartbeat);
    stop();
    res.end();
    setTimeout(() => socket.destroy(), 5_000).unref();
  };
  // Each frame is small and replaces the last: a client that reads nothing is cut off at 64 KiB.
  const send = (chunk: string) => {
    if (isEnded) return;
    if (res.writableLength > 64 * 1024) return end();
    res.write(chunk);
  };
  req.on('close', end);
  stop = deps.presence.watch(
    { projectId, itemId: first.item.id, languageId: first.language.id },
    (p) => send(frame(p)),
    end,
  );
}

export function presenceRouter(deps: PresenceRouterDeps): Router {
  const router = Router({ mergeParams: true });
  router
    .route('/presence')
    .get(async (req, res) => {
      const projectId = projectIdOf(req);
      // Validates the ids and the actor's access before the stream starts (a 4xx, not an event).
      const first = await readPresence(deps.core, {
        actor: actorOf(res),
        projectId,
        itemId: req.query['item_id'],
        languageId: req.query['language_id'],
      });
      stream(req, res, deps, first, projectId);
    })
    .post(async (req, res) => {
      await beatPresence(deps.core, { actor: actorOf(res), projectId: projectIdOf(req), body: req.body });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  router
    .route('/presence/:clientId')
    .delete(async (req, res) => {
      await leavePresence(deps.core, {
        actor: actorOf(res),
        projectId: projectIdOf(req),
        clientId: String(req.params['clientId']),
      });
      res.status(204).end();
    })
    .all(methodNotAllowed);
  return router;
}
