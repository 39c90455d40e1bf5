import type { IndexedVariant } from '@lectern/core';

/**
 * Batches the linked-item look-ups of one request and one language chain: every codename asked
 * for while resolvers run in the same tick goes to the index in one multi-get, and each is read
 * once per request (DESIGN read path: linked items by batched multi-get).
 */
export class ItemLoader {
  readonly #fetch: (codenames: readonly string[]) => Promise<readonly IndexedVariant[]>;
  readonly #known = new Map<string, Promise<IndexedVariant | null>>();
  #pending = new Map<string, (variant: IndexedVariant | null) => void>();
  #failures = new Map<string, (error: unknown) => void>();
  #isScheduled = false;

  constructor(fetch: (codenames: readonly string[]) => Promise<readonly IndexedVariant[]>) {
    this.#fetch = fetch;
  }

  load(codename: string): Promise<IndexedVariant | null> {
    const known = this.#known.get(codename);
    if (known !== undefined) return known;
    const promise = new Promise<IndexedVariant | null>((resolve, reject) => {
      this.#pending.set(codename, resolve);
      this.#failures.set(codename, reject);
    });
    this.#known.set(codename, promise);
    if (!this.#isScheduled) {
      this.#isScheduled = true;
      // After the promise jobs of this tick: sibling resolvers have asked by then.
      void Promise.resolve().then(() => process.nextTick(() => void this.#dispatch()));
    }
    return promise;
  }

  /** The variants found, in the order asked, without the ones the index does not hold. */
  async loadMany(codenames: readonly string[]): Promise<IndexedVariant[]> {
    const found = await Promise.all(codenames.map((c) => this.load(c)));
    return found.filter((v): v is IndexedVariant => v !== null);
  }

  async #dispatch(): Promise<void> {
    const pending = this.#pending;
    const failures = this.#failures;
    this.#pending = new Map();
    this.#failures = new Map();
    this.#isScheduled = false;
    try {
      const variants = await this.#fetch([...pending.keys()]);
      const byCodename = new Map(variants.map((v) => [v.item.system.codename, v]));
      for (const [codename, resolve] of pending) resolve(byCodename.get(codename) ?? null);
    } catch (error) {
      for (const reject of failures.values()) reject(error);
    }
  }
}
