import type { Clock } from './ports/clock.ts';
import type { IdSource } from './ports/id-source.ts';
import type { Store } from './ports/store.ts';

/** What every operation needs from the outside world. */
export interface CoreDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdSource;
}
