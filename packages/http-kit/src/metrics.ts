import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process, shared by every listener in it (the embedded shape runs
 * several). Request metrics carry a `service` label so listeners stay apart.
 */
export interface ProcessMetrics {
  readonly registry: Registry;
  observeRequest(sample: { service: string; method: string; route: string; status: number; seconds: number }): void;
}

export function createProcessMetrics(): ProcessMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'lectern_' });
  const requests = new Histogram({
    name: 'lectern_http_request_duration_seconds',
    help: 'HTTP requests by service, route template and status.',
    labelNames: ['service', 'method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // Each label set's child, found by one string key: prom-client hashes the label object on every
  // observe otherwise, a measurable share of a cache hit. Label sets are few (route templates).
  const children = new Map<string, { observe(seconds: number): void }>();
  return {
    registry,
    observeRequest({ service, method, route, status, seconds }) {
      const key = `${service}\u0000${method}\u0000${route}\u0000${status}`;
      let child = children.get(key);
      if (child === undefined) {
        child = requests.labels({ service, method, route, status: String(status) });
        if (children.size < 10_000) children.set(key, child);
      }
      child.observe(seconds);
    },
  };
}
