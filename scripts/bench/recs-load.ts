// POST load for the Smart Recommendations benchmark: wrk (Debian's package, a separate process
// from the server under test) with a Lua script that cycles through prepared JSON bodies, one
// connection, so the percentiles are the latency of one request at a time on a busy server.
import { execFile as execFileCb } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);

export interface PostLoadResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors, timeouts and answers other than 200. */
  readonly errors: number;
  /** 200 answers that did not hold `expected` codenames (0 when no count is expected). */
  readonly badBodies: number;
}

const lua = (bodies: readonly string[], path: string, key: string, expected: number | undefined) => `
local bodies = { ${bodies.map((b) => JSON.stringify(b)).join(',\n')} }
n, bad = 0, 0
-- done() runs in the main Lua state: it reads the counts of the threads' own states.
local threads = {}
function setup(thread) table.insert(threads, thread) end
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = ${JSON.stringify(`Bearer ${key}`)}
function request()
  n = n + 1
  return wrk.format("POST", ${JSON.stringify(path)}, nil, bodies[(n % #bodies) + 1])
end
local expected = ${expected ?? -1}
function response(status, headers, body)
  if status ~= 200 then return end
  if expected >= 0 then
    local _, count = body:gsub('"codename"', '')
    if count ~= expected then bad = bad + 1 end
  end
end
function done(summary, latency, requests)
  local e, wrong = summary.errors, 0
  for _, t in ipairs(threads) do wrong = wrong + (t:get("bad") or 0) end
  io.write(string.format('BENCH {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d,"bad":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout + e.status, wrong))
end
`;

/** Runs `seconds` of POSTs of the bodies (in turn) to `baseUrl` + `path` over one connection. */
export async function runPostLoad(options: {
  baseUrl: string;
  path: string;
  key: string;
  bodies: readonly string[];
  seconds: number;
  /** Codenames every 200 answer must hold (a JSON array of `{ codename }`); none checked when omitted. */
  expected?: number;
}): Promise<PostLoadResult> {
  const script = join(mkdtempSync(join(tmpdir(), 'lectern-recs-wrk-')), 'post.lua');
  writeFileSync(script, lua(options.bodies, options.path, options.key, options.expected));
  const { stdout } = await execFile(
    'wrk',
    ['--latency', '-t', '1', '-c', '1', '-d', `${options.seconds}s`, '--timeout', '10s', '-s', script, options.baseUrl],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH '));
  if (line === undefined) throw new Error(`wrk printed no result:\n${stdout}`);
  const r = JSON.parse(line.slice('BENCH '.length)) as Record<string, number>;
  const seconds = (r['duration_us'] ?? 1) / 1e6;
  return {
    requests: r['requests'] ?? 0,
    requestsPerSecond: (r['requests'] ?? 0) / seconds,
    p50Ms: (r['p50_us'] ?? 0) / 1000,
    p99Ms: (r['p99_us'] ?? 0) / 1000,
    errors: r['errors'] ?? 0,
    badBodies: r['bad'] ?? 0,
  };
}
