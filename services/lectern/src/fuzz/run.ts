import fc from 'fast-check';
import { snapshotChanges, type ProjectSnapshot } from '@lectern/testing';
import { send, type FuzzApi, type FuzzRequest } from './client.ts';
import { deliveryRequests, otherListenerRequests } from './delivery.ts';
import { graphqlRequests } from './graphql.ts';
import { foreignBody } from './judge.ts';
import { managementFamilies, managementRequests } from './management.ts';
import type { FuzzTarget } from './target.ts';

/** What one request did: its status (0: no answer) and what was wrong with it, if anything. */
export interface Outcome {
  readonly status: number;
  /** A 5xx, a foreign error body, a change stored by a refused request, or no answer at all. */
  readonly problem: { readonly kind: 'server_error' | 'foreign_body' | 'stored_change' | 'no_answer'; readonly detail: string } | null;
}

/**
 * Runs requests against a target and judges each, keeping the project's snapshot: a write that
 * is refused (or a read, checked every `readCheckEvery` requests) must leave it unchanged; an
 * accepted write moves the baseline.
 */
export class FuzzSession {
  readonly #target: FuzzTarget;
  readonly #readCheckEvery: number;
  #baseline: ProjectSnapshot | null = null;
  #sinceCheck = 0;

  constructor(target: FuzzTarget, options: { readCheckEvery?: number } = {}) {
    this.#target = target;
    this.#readCheckEvery = options.readCheckEvery ?? 25;
  }

  async run(request: FuzzRequest): Promise<Outcome> {
    this.#baseline ??= await this.#target.snapshot();
    let status = 0;
    let problem: Outcome['problem'] = null;
    try {
      const response = await send(this.#target.urls[request.api], request);
      status = response.status;
      const foreign = foreignBody(request, response);
      if (status >= 500) problem = { kind: 'server_error', detail: `${status} ${response.body.toString('utf8').slice(0, 200)}` };
      else if (foreign !== null) problem = { kind: 'foreign_body', detail: foreign };
    } catch (error) {
      problem = { kind: 'no_answer', detail: (error as Error).message };
    }
    this.#sinceCheck++;
    if (request.isWrite || this.#sinceCheck >= this.#readCheckEvery) {
      this.#sinceCheck = 0;
      const after = await this.#target.snapshot();
      const changed = snapshotChanges(this.#baseline, after);
      const isAccepted = request.isWrite && status >= 200 && status < 300;
      if (changed.length > 0 && !isAccepted && problem === null) {
        problem = { kind: 'stored_change', detail: `status ${status} changed ${changed.join(', ')}` };
      }
      this.#baseline = after;
    }
    return { status, problem };
  }
}

/** One generator of the suite: a family of one API. */
export interface FuzzFamily {
  readonly api: FuzzApi;
  readonly family: string;
  readonly requests: fc.Arbitrary<FuzzRequest>;
}

/** Every family: each Management route family, Delivery, Preview, GraphQL and Recommendations. */
export function fuzzFamilies(target: FuzzTarget, apis: readonly ('management' | 'delivery')[]): FuzzFamily[] {
  const { known, keys } = target;
  const families: FuzzFamily[] = [];
  if (apis.includes('management')) {
    for (const family of managementFamilies)
      families.push({ api: 'management', family, requests: managementRequests(known, keys.management, family) });
  }
  if (apis.includes('delivery')) {
    families.push(
      { api: 'delivery', family: 'delivery', requests: deliveryRequests(known, 'delivery', keys.delivery) },
      { api: 'preview', family: 'preview', requests: deliveryRequests(known, 'preview', keys.preview) },
      {
        api: 'graphql',
        family: 'graphql',
        requests: fc.oneof(graphqlRequests(known), otherListenerRequests(known, 'graphql')),
      },
      { api: 'recommendations', family: 'recommendations', requests: otherListenerRequests(known, 'recommendations') },
    );
  }
  return families;
}

/** Counts of one row of the report. */
export interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  serverErrors: number;
  foreignBodies: number;
  storedChanges: number;
  noAnswer: number;
}

export function emptyTally(): Tally {
  return { requests: 0, byStatus: new Map(), serverErrors: 0, foreignBodies: 0, storedChanges: 0, noAnswer: 0 };
}

export function count(tally: Tally, outcome: Outcome): void {
  tally.requests++;
  tally.byStatus.set(outcome.status, (tally.byStatus.get(outcome.status) ?? 0) + 1);
  if (outcome.problem?.kind === 'server_error') tally.serverErrors++;
  if (outcome.problem?.kind === 'foreign_body') tally.foreignBodies++;
  if (outcome.problem?.kind === 'stored_change') tally.storedChanges++;
  if (outcome.problem?.kind === 'no_answer') tally.noAnswer++;
}

/** `n` requests of an arbitrary, drawn in batches from `seed` (reproducible). */
export function* draw<T>(arbitrary: fc.Arbitrary<T>, n: number, seed: number): Generator<T> {
  const batch = 500;
  for (let done = 0, round = 0; done < n; round++) {
    const size = Math.min(batch, n - done);
    for (const value of fc.sample(arbitrary, { numRuns: size, seed: seed + round })) yield value;
    done += size;
  }
}
