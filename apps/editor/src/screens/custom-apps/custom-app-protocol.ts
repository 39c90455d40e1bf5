/*
 * The host side of Kontent.ai's custom app protocol as `@kontent-ai/custom-app-sdk` 2.x speaks it
 * (its iframeSchema): the app posts `{type, requestId, version, payload}` to its parent and waits
 * for a message with the same `requestId`; observed contexts get
 * `context-changed-notification`s with the subscription's id. Errors are `{requestId, isError:
 * true, code, description}` with code `unknown-message` or `not-supported`.
 */

/** Every property the SDK can ask for (allCustomAppContextPropertyKeys). */
const knownProperties = new Set([
  'environmentId',
  'userId',
  'userEmail',
  'userRoles',
  'appConfig',
  'contentItemId',
  'languageId',
  'path',
  'pageTitle',
  'validationErrors',
  'currentPage',
  'itemListingFilter',
  'itemListingSelection',
  'contentTypeId',
  'snippetId',
  'taxonomyGroupId',
  'hasUnsavedChanges',
  'contentModelListingSelection',
  'contentModelListingFilter',
]);

/** The context the host has now: the shared properties and the page's own. */
export interface AppContext {
  readonly environmentId: string;
  readonly userId: string;
  readonly userEmail: string;
  readonly userRoles: readonly { id: string; codename: string | null }[];
  /** The app's `config` parsed as JSON (undefined when it has none or it does not parse). */
  readonly appConfig: unknown;
  readonly path: string;
  readonly pageTitle: string;
  readonly currentPage: 'itemEditor' | 'other';
  readonly contentItemId?: string;
  readonly languageId?: string;
  readonly validationErrors?: Readonly<Record<string, readonly string[]>>;
}

export function parseAppConfig(raw: string | null | undefined): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function pick(context: AppContext, properties: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of properties) {
    if (p in context) out[p] = (context as unknown as Record<string, unknown>)[p];
  }
  return out;
}

/** A pop-up size as the SDK sends it: px 200–2000 or % 10–100. */
export interface PopupDimension {
  readonly unit: 'px' | '%';
  readonly value: number;
}

export type HostAnswer = {
  readonly reply: Record<string, unknown>;
  readonly subscribe?: { id: string; properties: string[] };
  readonly unsubscribe?: string;
  readonly resize?: { width: PopupDimension; height: PopupDimension };
} | null;

function dimensionOf(raw: unknown): PopupDimension | null {
  if (raw === null || typeof raw !== 'object') return null;
  const d = raw as { unit?: unknown; value?: unknown };
  if (typeof d.value !== 'number' || !Number.isFinite(d.value)) return null;
  if (d.unit === 'px' && d.value >= 200 && d.value <= 2000) return { unit: 'px', value: d.value };
  if (d.unit === '%' && d.value >= 10 && d.value <= 100) return { unit: '%', value: d.value };
  return null;
}

function error(requestId: string, code: 'unknown-message' | 'not-supported', description: string) {
  return { reply: { requestId, isError: true, code, description } };
}

/**
 * The answer to one message from the app (null when it is not a request of the protocol). A
 * subscription's id is made by `newId` (a UUID: the SDK checks it is one).
 */
export function answerAppMessage(
  raw: unknown,
  context: AppContext,
  newId: () => string,
  options: { isPopup?: boolean } = {},
): HostAnswer {
  if (raw === null || typeof raw !== 'object') return null;
  const m = raw as { type?: unknown; requestId?: unknown; version?: unknown; payload?: unknown };
  if (typeof m.requestId !== 'string' || typeof m.type !== 'string') return null;
  const requestId = m.requestId;
  const payload = m.payload !== null && typeof m.payload === 'object' ? (m.payload as Record<string, unknown>) : {};
  const properties = Array.isArray(payload['properties'])
    ? (payload['properties'] as unknown[]).filter((p): p is string => typeof p === 'string' && knownProperties.has(p))
    : [];
  switch (`${m.type}@${String(m.version)}`) {
    case 'get-context-request@1.0.0':
      return {
        reply: {
          type: 'get-context-response',
          isError: false,
          requestId,
          version: '1.0.0',
          payload: {
            context: {
              environmentId: context.environmentId,
              userId: context.userId,
              userEmail: context.userEmail,
              userRoles: context.userRoles,
            },
            config: context.appConfig,
          },
        },
      };
    case 'get-context-request@2.0.0':
      return {
        reply: {
          type: 'get-context-response',
          isError: false,
          requestId,
          version: '2.0.0',
          payload: { properties: pick(context, properties) },
        },
      };
    case 'observe-context-request@1.0.0': {
      const id = newId();
      return {
        reply: {
          type: 'observe-context-response',
          isError: false,
          requestId,
          version: '1.0.0',
          payload: { subscriptionId: id },
        },
        subscribe: { id, properties },
      };
    }
    case 'unsubscribe-context-request@1.0.0': {
      const id = typeof payload['subscriptionId'] === 'string' ? payload['subscriptionId'] : '';
      return {
        reply: {
          type: 'unsubscribe-context-response',
          isError: false,
          requestId,
          version: '1.0.0',
          payload: { success: id !== '' },
        },
        unsubscribe: id,
      };
    }
    case 'set-popup-size-request@1.0.0': {
      // Only an app in a pop-up (display mode "dialog") has a size to set.
      if (!options.isPopup)
        return error(requestId, 'not-supported', 'This custom app is not shown in a pop-up, so its size is not set.');
      const width = dimensionOf(payload['width']);
      const height = dimensionOf(payload['height']);
      if (!width || !height)
        return error(requestId, 'not-supported', 'Give width and height in px (200 to 2000) or % (10 to 100).');
      return {
        reply: { type: 'set-popup-size-response', isError: false, requestId, version: '1.0.0' },
        resize: { width, height },
      };
    }
    default:
      return error(
        requestId,
        'unknown-message',
        `The message '${m.type}' (version ${String(m.version)}) is not known.`,
      );
  }
}

/** The notification an observer gets when the context changes. */
export function contextNotification(subscriptionId: string, properties: readonly string[], context: AppContext) {
  return {
    type: 'context-changed-notification',
    subscriptionId,
    version: '1.0.0',
    payload: { properties: pick(context, properties) },
  };
}
