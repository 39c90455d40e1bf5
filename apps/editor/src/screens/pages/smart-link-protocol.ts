import type { ElementValue, TypeElement } from '../../elements/model.ts';

/*
 * The host side of `@kontent-ai/smart-link` 5.x's iframe protocol (its IFrameCommunicator and
 * IFrameCommunicatorTypes): the site posts `{type, data, metadata, requestId}` to its parent; the
 * host answers a request by posting a message with the same `requestId` (the SDK runs the
 * request's callback with that message's `data`), and pushes status, refresh and update
 * messages. The SDK turns on Web Spotlight mode only after the host answers `initialized`.
 */

export const SmartLinkMessage = {
  ElementClicked: 'kontent-smart-link:element:clicked',
  ContentItemClicked: 'kontent-smart-link:content-item:clicked',
  ContentComponentClicked: 'kontent-smart-link:content-component:clicked',
  Initialized: 'kontent-smart-link:initialized',
  Status: 'kontent-smart-link:status',
  AddInitial: 'kontent-smart-link:add:initial',
  AddAction: 'kontent-smart-link:add:action',
  RefreshPreview: 'kontent-smart-link:preview:refresh',
  UpdatePreview: 'kontent-smart-link:preview:update',
  PreviewIFrameCurrentUrl: 'kontent-smart-link:preview:current-url',
  PreviewIFrameCurrentUrlResponse: 'kontent-smart-link:preview:current-url:response',
  AddInitialResponse: 'kontent-smart-link:add:initial:response',
  /** Our answer to `initialized` (the SDK reads only its requestId). */
  InitializedResponse: 'kontent-smart-link:initialized:response',
} as const;

/** The SDK's enums, by value (AddButtonElementType, AddButtonPermission, AddButtonPermissionCheckResult, AddButtonAction). */
export const AddElementType = { LinkedItems: 'LinkedItems', RichText: 'RichText', Unknown: 'Unknown' } as const;
export const AddPermission = { CreateNew: 'createNew', Edit: 'edit', ViewParent: 'viewParent' } as const;
export const PermissionResult = { Ok: 'Ok', PermissionMissing: 'PermissionMissing' } as const;
export const AddAction = {
  CreateComponent: 'CreateComponent',
  CreateLinkedItem: 'CreateLinkedItem',
  InsertLinkedItem: 'InsertLinkedItem',
} as const;

export type InsertPosition =
  { readonly placement: 'before' | 'after'; readonly targetId: string } | { readonly placement: 'start' | 'end' };

/** What a click or an add button on the site asks of the host. */
export type SiteRequest =
  | { kind: 'edit'; itemId: string; elementCodename: string | null; languageCodename: string; projectId: string }
  | {
      kind: 'add-initial';
      itemId: string;
      elementCodename: string;
      projectId: string;
      languageCodename: string;
      requestId: string;
    }
  | {
      kind: 'add-action';
      itemId: string;
      elementCodename: string;
      action: string;
      insertPosition: InsertPosition;
      projectId: string;
      languageCodename: string;
    }
  | { kind: 'initialized'; requestId: string }
  | { kind: 'current-url'; url: string };

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null;
}

function positionOf(v: unknown): InsertPosition {
  const p = v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  const placement = p['placement'];
  const targetId = str(p['targetId']);
  if ((placement === 'before' || placement === 'after') && targetId) return { placement, targetId };
  return { placement: placement === 'start' ? 'start' : 'end' };
}

/** A message from the site read into a request; null for anything else (ignored, as the SDK does). */
export function readSiteMessage(raw: unknown): SiteRequest | null {
  if (raw === null || typeof raw !== 'object') return null;
  const m = raw as { type?: unknown; data?: unknown; requestId?: unknown };
  const d = m.data !== null && typeof m.data === 'object' ? (m.data as Record<string, unknown>) : {};
  const requestId = str(m.requestId);
  const projectId = str(d['projectId']) ?? '';
  const languageCodename = str(d['languageCodename']) ?? '';
  const itemId = str(d['itemId']);
  switch (m.type) {
    case SmartLinkMessage.Initialized:
      return requestId ? { kind: 'initialized', requestId } : null;
    case SmartLinkMessage.ElementClicked:
    case SmartLinkMessage.ContentItemClicked:
    case SmartLinkMessage.ContentComponentClicked:
      return itemId
        ? { kind: 'edit', itemId, elementCodename: str(d['elementCodename']), languageCodename, projectId }
        : null;
    case SmartLinkMessage.AddInitial: {
      const elementCodename = str(d['elementCodename']);
      return itemId && elementCodename && requestId
        ? { kind: 'add-initial', itemId, elementCodename, projectId, languageCodename, requestId }
        : null;
    }
    case SmartLinkMessage.AddAction: {
      const elementCodename = str(d['elementCodename']);
      const action = str(d['action']);
      return itemId && elementCodename && action
        ? {
            kind: 'add-action',
            itemId,
            elementCodename,
            action,
            insertPosition: positionOf(d['insertPosition']),
            projectId,
            languageCodename,
          }
        : null;
    }
    case SmartLinkMessage.PreviewIFrameCurrentUrlResponse: {
      const url = typeof d['previewUrl'] === 'string' ? d['previewUrl'] : null;
      return url ? { kind: 'current-url', url } : null;
    }
    default:
      return null;
  }
}

/** The answer to an add button's first click: which buttons the popover offers. */
export function addInitialAnswer(def: TypeElement | undefined, canEdit: boolean, isPublished: boolean) {
  const elementType =
    def?.type === 'modular_content' || def?.type === 'subpages'
      ? AddElementType.LinkedItems
      : def?.type === 'rich_text'
        ? AddElementType.RichText
        : AddElementType.Unknown;
  const result = canEdit ? PermissionResult.Ok : PermissionResult.PermissionMissing;
  return {
    elementType,
    isParentPublished: isPublished,
    // The SDK reads a Map (structured clone carries it across the frame).
    permissions: new Map<string, string>([
      [AddPermission.ViewParent, PermissionResult.Ok],
      [AddPermission.Edit, result],
      [AddPermission.CreateNew, result],
    ]),
  };
}

/** Ids inserted into a linked-items value at the position the add button names (by item id). */
export function insertAt(current: readonly string[], added: readonly string[], at: InsertPosition): string[] {
  const rest = current.filter((id) => !added.includes(id));
  let index = rest.length;
  if (at.placement === 'start') index = 0;
  else if (at.placement === 'before' || at.placement === 'after') {
    const i = rest.indexOf(at.targetId);
    if (i >= 0) index = at.placement === 'before' ? i : i + 1;
  }
  return [...rest.slice(0, index), ...added, ...rest.slice(index)];
}

/** What the update message needs to name items and options in Delivery's shape. */
export interface UpdateContext {
  /** Codenames of items by id (linked items are sent as codenames, as Delivery does). */
  readonly codenameOf: (itemId: string) => string | null;
}

/**
 * One element's unsaved value in the shape of the update message (Delivery's element without
 * `type` and `name`, see the SDK's ElementUpdateData), or null for kinds the preview does not
 * take (guidelines, components we cannot render).
 */
export function updateElementOf(def: TypeElement, v: ElementValue, ctx: UpdateContext) {
  const element = { id: def.id, codename: def.codename };
  const ids = Array.isArray(v.value) ? (v.value as { id?: string }[]).map((r) => r.id ?? '') : [];
  switch (def.type) {
    case 'text':
    case 'url_slug':
    case 'custom':
      return { element, type: def.type, data: { value: typeof v.value === 'string' ? v.value : '' } };
    case 'number':
      return { element, type: def.type, data: { value: typeof v.value === 'number' ? v.value : null } };
    case 'date_time':
      return {
        element,
        type: def.type,
        data: { value: typeof v.value === 'string' ? v.value : null, displayTimeZone: v.display_timezone ?? null },
      };
    case 'multiple_choice': {
      const options = (def['options'] ?? []) as { id: string; name: string; codename: string }[];
      const value = ids.flatMap((id) =>
        options.filter((o) => o.id === id).map((o) => ({ name: o.name, codename: o.codename })),
      );
      return { element, type: def.type, data: { value } };
    }
    case 'modular_content':
    case 'subpages': {
      const value = ids.map((id) => ctx.codenameOf(id)).filter((c): c is string => c !== null);
      return { element, type: 'modular_content', data: { value, linkedItems: [] } };
    }
    case 'rich_text':
      return {
        element,
        type: def.type,
        data: {
          value: typeof v.value === 'string' ? v.value : '',
          images: [],
          links: [],
          linkedItemCodenames: [],
          linkedItems: [],
        },
      };
    default:
      return null;
  }
}

/** The `preview:update` message data for an item's form values. */
export function updateMessageOf(input: {
  projectId: string;
  item: { id: string; codename: string };
  language: { id: string; codename: string };
  defs: readonly TypeElement[];
  values: readonly ElementValue[];
  ctx: UpdateContext;
}) {
  const elements = input.values.flatMap((v) => {
    const def = input.defs.find((d) => d.id === v.element.id);
    const one = def ? updateElementOf(def, v, input.ctx) : null;
    return one ? [one] : [];
  });
  return {
    projectId: input.projectId,
    variant: { id: input.language.id, codename: input.language.codename },
    item: { id: input.item.id, codename: input.item.codename },
    elements,
  };
}
