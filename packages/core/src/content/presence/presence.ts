import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import type { Actor } from '../../domain/actor.ts';
import { assertModelAccess } from '../../model/shared/index.ts';
import type { VariantIds } from '../../ports/presence.ts';

/*
 * Presence operations (issue 31, docs/editor-api.md "Presence"). Bounded whatever a client does:
 * a tab's heartbeats are stored at most once per `minIntervalMs` (faster ones are refused with
 * RATE_LIMITED), a person holds at most `maxPerUser` rows (one per open tab), rows expire
 * `expiryMs` after their last heartbeat and every heartbeat purges the expired ones; ids must be
 * UUIDs of an existing item and an element a codename, so nothing else reaches the table.
 */

export const presenceLimits = {
  /** A tab's heartbeats are stored at most this often (ms); the app beats every 10 s and on focus. */
  minIntervalMs: 500,
  /** Rows one person may hold (open tabs). */
  maxPerUser: 20,
  /** A row older than this (ms) is gone: the tab closed without saying so. */
  expiryMs: 30_000,
} as const;

export interface PresencePersonJson {
  readonly user_id: string;
  readonly name: string;
  readonly email: string;
  readonly client_id: string;
  /** The codename of the element being edited, or null. */
  readonly element: string | null;
  readonly seen_at: string;
}

export interface PresenceJson {
  readonly item: { readonly id: string };
  readonly language: { readonly id: string };
  readonly people: PresencePersonJson[];
  /** The person whose save made the current version; null when that version came from elsewhere (a key, a task). */
  readonly last_saved_by: { readonly user_id: string; readonly name: string; readonly saved_at: string } | null;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const codename = /^[a-z0-9_]{1,60}$/;

function personOf(actor: Actor): string {
  if (actor.type === 'person') return actor.userId;
  throw new LecternError('PROJECT_ACCESS_DENIED', { message: 'Presence is for people signed in to the editor.' });
}

/** The problems of the variant's ids (UUIDs), added to `problems`. */
function idProblems(input: { itemId: unknown; languageId: unknown }, problems: { message: string; path: string }[]) {
  if (typeof input.itemId !== 'string' || !uuid.test(input.itemId))
    problems.push({ path: 'item_id', message: 'An item id (UUID) is required.' });
  if (typeof input.languageId !== 'string' || !uuid.test(input.languageId))
    problems.push({ path: 'language_id', message: 'A language id (UUID) is required.' });
}

function requireIds(input: { itemId: unknown; languageId: unknown }): { itemId: string; languageId: string } {
  const problems: { message: string; path: string }[] = [];
  idProblems(input, problems);
  if (problems.length > 0) throw new LecternError('INVALID_REQUEST_BODY', { problems });
  return { itemId: input.itemId as string, languageId: input.languageId as string };
}

/** Records that the person's tab has the variant open (editing `element`, when not null). */
export async function beatPresence(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string; body: unknown },
): Promise<void> {
  assertModelAccess(input.actor, input.projectId);
  const userId = personOf(input.actor);
  const body = (input.body !== null && typeof input.body === 'object' ? input.body : {}) as Record<string, unknown>;
  const [itemId, languageId, clientId] = [body['item_id'], body['language_id'], body['client_id']];
  const element = body['element'] ?? null;
  const problems: { message: string; path: string }[] = [];
  idProblems({ itemId, languageId }, problems);
  if (typeof clientId !== 'string' || !uuid.test(clientId))
    problems.push({ path: 'client_id', message: 'The tab id must be a UUID.' });
  if (element !== null && (typeof element !== 'string' || !codename.test(element)))
    problems.push({ path: 'element', message: 'The element must be a codename or null.' });
  if (problems.length > 0) throw new LecternError('INVALID_REQUEST_BODY', { problems });
  const now = deps.clock.now();
  const result = await deps.store.transaction(async (tx) => {
    if (!(await tx.items.find(input.projectId, { id: itemId as string }))) throw new LecternError('ITEM_NOT_FOUND');
    await tx.presence.purge(new Date(now.getTime() - presenceLimits.expiryMs));
    return tx.presence.beat(
      {
        userId,
        clientId: clientId as string,
        projectId: input.projectId,
        itemId: itemId as string,
        languageId: languageId as string,
        element: element as string | null,
        at: now,
      },
      presenceLimits,
    );
  });
  if (result === 'too_fast')
    throw new LecternError('RATE_LIMITED', { retryAfterSeconds: presenceLimits.minIntervalMs / 1000 });
}

/** The tab closed the variant: its row goes at once (others see it leave without waiting for expiry). */
export async function leavePresence(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string; clientId: string },
): Promise<void> {
  assertModelAccess(input.actor, input.projectId);
  const userId = personOf(input.actor);
  if (!uuid.test(input.clientId))
    throw new LecternError('INVALID_REQUEST_BODY', { message: 'The tab id must be a UUID.' });
  await deps.store.transaction((tx) => tx.presence.leave({ userId, clientId: input.clientId }));
}

/** Who has the variant open now (rows within the expiry) and who saved its current version. */
export async function readPresence(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string; itemId: unknown; languageId: unknown },
): Promise<PresenceJson> {
  assertModelAccess(input.actor, input.projectId);
  const ids: VariantIds = { projectId: input.projectId, ...requireIds(input) };
  const since = new Date(deps.clock.now().getTime() - presenceLimits.expiryMs);
  return deps.store.transaction(async (tx) => {
    // A stream of an item that does not exist is refused, so watchers cannot make up variants to poll.
    if (!(await tx.items.find(ids.projectId, { id: ids.itemId }))) throw new LecternError('ITEM_NOT_FOUND');
    const rows = await tx.presence.list({ ...ids, since });
    const save = await tx.presence.lastSave(ids);
    const variant = await tx.variants.find(ids.projectId, ids.itemId, ids.languageId);
    const names = new Map<string, { name: string; email: string }>();
    for (const id of new Set([...rows.map((r) => r.userId), ...(save ? [save.userId] : [])])) {
      const user = await tx.users.get(id);
      names.set(id, { name: user?.name || user?.email || 'Someone', email: user?.email ?? '' });
    }
    const isCurrent = save !== null && variant !== null && save.at.getTime() === variant.lastModified.getTime();
    return {
      item: { id: ids.itemId },
      language: { id: ids.languageId },
      people: rows.map((r) => ({
        user_id: r.userId,
        name: names.get(r.userId)?.name ?? 'Someone',
        email: names.get(r.userId)?.email ?? '',
        client_id: r.clientId,
        element: r.element,
        seen_at: r.at.toISOString(),
      })),
      last_saved_by:
        save && isCurrent
          ? { user_id: save.userId, name: names.get(save.userId)?.name ?? 'Someone', saved_at: save.at.toISOString() }
          : null,
    };
  });
}
