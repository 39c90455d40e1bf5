import { isUuid } from '../../domain/uuid.ts';
import { idFromExternalId, isRecord } from '../shared/index.ts';

/**
 * Gives new objects of a definition their ids: the id derived from the external id, else a random
 * one. Ids sent by the client are not kept (tools post whole exported objects, and SDK-NET sends
 * the all-zero id for new elements), but remembered in `sentIds` so references to them in the
 * same request still resolve. Nested kinds are scoped by their parent (`element@<type id>`,
 * `option@<element id>`, `content_group@<type id>`), so equal external ids in different parents
 * never give equal ids.
 */
export class IdAssigner {
  readonly #projectId: string;
  readonly #containerId: string;
  readonly #uuid: () => string;
  /** Ids of the elements created in this request. */
  readonly fresh = new Set<string>();
  readonly sentIds = new Map<string, string>();

  constructor(options: { projectId: string; containerId: string; uuid: () => string }) {
    this.#projectId = options.projectId;
    this.#containerId = options.containerId;
    this.#uuid = options.uuid;
  }

  #id(raw: Record<string, unknown>, kind: string): string {
    const ext = raw['external_id'];
    const id =
      typeof ext === 'string' && ext !== ''
        ? idFromExternalId({ projectId: this.#projectId, kind, externalId: ext })
        : this.#uuid();
    const sent = raw['id'];
    if (typeof sent === 'string' && isUuid(sent) && !/^[0-]+$/.test(sent)) this.sentIds.set(sent.toLowerCase(), id);
    return id;
  }

  /** A new element (with its options), ready to be read. Non-objects are returned as they are. */
  element(raw: unknown): unknown {
    if (!isRecord(raw)) return raw;
    const id = this.#id(raw, `element@${this.#containerId}`);
    this.fresh.add(id);
    const options = raw['options'];
    return {
      ...raw,
      id,
      ...(Array.isArray(options) ? { options: options.map((o) => this.option(id, o)) } : {}),
    };
  }

  option(elementId: string, raw: unknown): unknown {
    return isRecord(raw) ? { ...raw, id: this.#id(raw, `option@${elementId}`) } : raw;
  }

  group(raw: unknown): unknown {
    return isRecord(raw) ? { ...raw, id: this.#id(raw, `content_group@${this.#containerId}`) } : raw;
  }

  /** The id a reference by id means in this request (a sent id of a new object maps to its new id). */
  mapped(id: string): string {
    return this.sentIds.get(id) ?? id;
  }
}
