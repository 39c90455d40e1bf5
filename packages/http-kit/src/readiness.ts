/**
 * What /readyz reports: ready while the dependencies answer and the process is not draining.
 * `drain()` is called first on SIGTERM, so load balancers stop sending traffic before the
 * listeners close.
 */
export interface Readiness {
  readonly isDraining: boolean;
  drain(): void;
  /** Resolves true when every dependency check passes. */
  check(): Promise<boolean>;
}

export function createReadiness(checks: readonly (() => Promise<void>)[]): Readiness {
  let isDraining = false;
  return {
    get isDraining() {
      return isDraining;
    },
    drain() {
      isDraining = true;
    },
    async check() {
      if (isDraining) return false;
      try {
        await Promise.all(checks.map((c) => c()));
        return true;
      } catch {
        return false;
      }
    },
  };
}
