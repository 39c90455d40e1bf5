import type { WebhookFilter, WebhookObjectType } from '@lectern/core';
import type { NotificationKind } from './event-map.ts';

/** What a notification is about, by id, for the filters of a webhook's triggers. */
export type NotificationSubject = NotificationKind & {
  readonly collectionId?: string;
  readonly typeId?: string;
  readonly languageId?: string;
  /** The taxonomy group, for taxonomy notifications. */
  readonly taxonomyId?: string;
  /** The step a `workflow_step_changed` notification moved to. */
  readonly stepTo?: { readonly workflowId: string; readonly stepId: string };
};

type Refs = readonly { readonly id?: unknown }[] | undefined;

interface Section {
  readonly enabled?: unknown;
  readonly actions?: readonly {
    readonly action?: unknown;
    readonly transition_to?: readonly {
      readonly workflow_identifier?: { readonly id?: unknown };
      readonly step_identifier?: { readonly id?: unknown };
    }[];
  }[];
  readonly filters?: Readonly<Record<string, Refs>>;
}

/**
 * The subject id each filter list of each object type's section tests: one entry per filter of
 * core's `webhookFilters`, so a filter added there must be matched here.
 */
const filterIds: {
  readonly [T in WebhookObjectType]: {
    readonly [F in WebhookFilter<T>]: (s: NotificationSubject) => string | undefined;
  };
} = {
  content_item: {
    collections: (s) => s.collectionId,
    content_types: (s) => s.typeId,
    languages: (s) => s.languageId,
  },
  content_type: { content_types: (s) => s.typeId },
  taxonomy: { taxonomies: (s) => s.taxonomyId },
  language: { languages: (s) => s.languageId },
  asset: {},
};

/** A filter list that is absent or empty lets everything through; otherwise it must name the subject. */
function passes(refs: Refs, id: string | undefined): boolean {
  if (refs === undefined || refs.length === 0) return true;
  return id !== undefined && refs.some((ref) => ref.id === id);
}

/**
 * Whether a current-format webhook's `delivery_triggers` (with references resolved to ids) ask
 * for this notification: the same delivery slot, then either every event (`events: "all"`) or
 * the object type's section enabled, the action listed (for a workflow step change, with the
 * step moved to among its `transition_to` when that list is not empty) and every filter passed.
 */
export function matchesTriggers(triggers: Readonly<Record<string, unknown>>, subject: NotificationSubject): boolean {
  if (triggers['slot'] !== subject.slot) return false;
  if (triggers['events'] === 'all') return true;
  const section = triggers[subject.objectType] as Section | undefined;
  if (section === undefined || section.enabled !== true) return false;
  const action = section.actions?.find((a) => a.action === subject.action);
  if (action === undefined) return false;
  const transitions = action.transition_to ?? [];
  if (subject.action === 'workflow_step_changed' && transitions.length > 0) {
    const to = subject.stepTo;
    const isListed = transitions.some(
      (t) => to !== undefined && t.workflow_identifier?.id === to.workflowId && t.step_identifier?.id === to.stepId,
    );
    if (!isListed) return false;
  }
  const filters = section.filters ?? {};
  const idsOf: Readonly<Record<string, (s: NotificationSubject) => string | undefined>> = filterIds[subject.objectType];
  return Object.entries(idsOf).every(([name, idOf]) => passes(filters[name], idOf(subject)));
}
