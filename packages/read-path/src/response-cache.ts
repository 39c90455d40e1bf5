/** A cached Delivery answer: the exact bytes sent, their ETag and the headers that go with them. */
export interface CachedResponse {
  readonly body: Buffer;
  readonly etag: string;
  /** Content type, ETag, Vary, `X-Request-Charge` and the route's own (e.g. `X-Continuation`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The route template that computed it (`/:projectId/items`): the metrics label of a hit served before routing. */
  readonly route: string;
}

/**
 * In-memory LRU of Delivery answers. Keys hold (project, channel, index watermark, normalised
 * query), so an index change makes new keys and old entries simply age out (DESIGN read path).
 */
export class ResponseCache {
  readonly #entries = new Map<string, CachedResponse>();
  #bytes = 0;

  readonly limits: {
    /** Entries kept at most. */
    readonly maxEntries: number;
    /** Sum of body lengths kept at most, in bytes. */
    readonly maxBytes: number;
  };

  constructor(limits: ResponseCache['limits']) {
    this.limits = limits;
  }

  get(key: string): CachedResponse | undefined {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      // Refresh recency: Map iteration order is insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: CachedResponse): void {
    if (value.body.length > this.limits.maxBytes / 4) return;
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= old.body.length;
    }
    this.#entries.set(key, value);
    this.#bytes += value.body.length;
    for (const [k, v] of this.#entries) {
      if (this.#entries.size <= this.limits.maxEntries && this.#bytes <= this.limits.maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= v.body.length;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
