import type { DeliveryChannel } from '@lectern/core';
import { LecternError } from '@lectern/errors';

/** A variant's place in the order of the changes of one sequence. */
export interface VariantKey {
  readonly itemId: string;
  readonly language: string;
}

/**
 * The position a Sync API v2 client has reached on one channel of one project. Without `after`:
 * every change with a project sequence at or below `seq` has been handed out. With `after`: every
 * change below `seq`, and those at `seq` up to that variant (one sequence can hold more changes
 * than a page). Clients treat the token as opaque.
 */
export interface SyncPosition {
  readonly projectId: string;
  readonly channel: DeliveryChannel;
  readonly seq: number;
  readonly after: VariantKey | null;
}

const version = 1;
const channelCodes: Readonly<Record<DeliveryChannel, string>> = { production: 'd', preview: 'p' };

/** The `X-Continuation` text of a position: base64url JSON `{v, p, c, s[, i, l]}`. */
export function writeSyncToken(position: SyncPosition): string {
  const body = {
    v: version,
    p: position.projectId,
    c: channelCodes[position.channel],
    s: position.seq,
    ...(position.after === null ? {} : { i: position.after.itemId, l: position.after.language }),
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * Reads a token given back by a client. A missing, empty or unreadable token, or one issued for
 * another project or channel, is CONTINUATION_TOKEN_INVALID (400, error_code 107): sync has no
 * first page without a token — clients call `POST …/sync/init` for one.
 */
export function readSyncToken(
  header: string | string[] | undefined,
  expected: { readonly projectId: string; readonly channel: DeliveryChannel },
): SyncPosition {
  const token = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (token === '' || !/^[A-Za-z0-9_-]+$/.test(token)) throw new LecternError('CONTINUATION_TOKEN_INVALID');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new LecternError('CONTINUATION_TOKEN_INVALID');
  }
  const t = (parsed ?? {}) as { v?: unknown; p?: unknown; c?: unknown; s?: unknown; i?: unknown; l?: unknown };
  const hasAfter = t.i !== undefined || t.l !== undefined;
  const isValid =
    t.v === version &&
    t.p === expected.projectId &&
    t.c === channelCodes[expected.channel] &&
    typeof t.s === 'number' &&
    Number.isSafeInteger(t.s) &&
    t.s >= 0 &&
    (!hasAfter || (typeof t.i === 'string' && typeof t.l === 'string' && t.s > 0));
  if (!isValid) throw new LecternError('CONTINUATION_TOKEN_INVALID');
  return {
    projectId: expected.projectId,
    channel: expected.channel,
    seq: t.s as number,
    after: hasAfter ? { itemId: t.i as string, language: t.l as string } : null,
  };
}
