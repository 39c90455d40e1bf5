// One autocannon run in its own process (the Delivery benchmark's fallback when wrk cannot be
// installed). Argument: a LoadSpec as JSON; prints one LoadResult as JSON.
import type { LoadResult, LoadSpec } from './load-generator.ts';

interface AutocannonResult {
  readonly requests: { readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly duration: number;
  readonly errors: number;
  readonly non2xx: number;
}
interface AutocannonRequest {
  setupRequest?: (request: { path: string }) => { path: string };
  onResponse?: (status: number, body: string, context: unknown, headers: Record<string, string>) => void;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  requests: AutocannonRequest[];
}) => Promise<AutocannonResult>;

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const autocannon = ((await import('autocannon')) as { default: Autocannon }).default;
const isWalk = spec.count > 0;
let k = 0;
let hits = 0;
let misses = 0;
let wrong = 0;
/** Whether a 2xx body fails the spec's `expect` or `reject` (as the wrk script counts it). */
const isWrong = (body: string) =>
  (spec.expect ?? []).some((c) => body.split(c.text).length - 1 < (c.times ?? 1)) ||
  (spec.reject ?? []).some((text) => body.includes(text));
const isChecked = isWalk || (spec.expect ?? []).length + (spec.reject ?? []).length > 0;
const request: AutocannonRequest = {
  ...(isWalk
    ? {
        setupRequest: (req: { path: string }) => {
          const v = String((spec.start ?? 0) + ((spec.offset + k++) % spec.count)).padStart(spec.width, '0');
          return { ...req, path: spec.template.replace('{n}', v) };
        },
      }
    : {}),
  ...(isChecked
    ? {
        onResponse: (status: number, body: string, _context: unknown, headers: Record<string, string>) => {
          const cache = headers['x-cache'];
          if (cache === 'HIT') hits += 1;
          else if (cache === 'MISS') misses += 1;
          if (status >= 200 && status < 300 && isWrong(body)) wrong += 1;
        },
      }
    : {}),
};
const result = await autocannon({
  url: `${spec.baseUrl}${isWalk ? '' : spec.template}`,
  connections: spec.connections,
  duration: spec.seconds,
  timeout: 10,
  requests: [request],
});
const out: LoadResult = {
  requests: result.requests.total,
  seconds: result.duration,
  requestsPerSecond: result.requests.total / result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  errors: result.errors + result.non2xx,
  answerErrors: wrong,
  hits: isChecked ? hits : null,
  misses: isChecked ? misses : null,
  nextOffset: spec.offset + k + 1,
};
console.log(JSON.stringify(out));
