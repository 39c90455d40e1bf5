// The load generators of the Delivery benchmark, each a separate process from the server under
// test: wrk (Debian's package, installed on first use like the test engines) or, when wrk cannot
// be installed, autocannon (npm devDependency) run as a child process.
import { execFile as execFileCb, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);

export type LoaderName = 'wrk' | 'autocannon';

/**
 * What one load run asks for. Each request's path is `template` with `{n}` replaced by a walk
 * value: `(offset + k) mod count` for the k-th request over all connections, zero-padded to
 * `width`, so consecutive requests ask for different URLs (cache misses). `count` 0: the template
 * as it is, every request the same URL.
 */
export interface LoadSpec {
  readonly baseUrl: string;
  readonly template: string;
  readonly count: number;
  readonly offset: number;
  readonly width: number;
  readonly connections: number;
  readonly seconds: number;
  /**
   * The body check of a walk (wrk only): the body of a Lua function of `body` returning true when
   * the answer is right, e.g. `return body:find('"items":[', 1, true) ~= nil`. A 2xx answer it
   * refuses counts as a wrong answer. Responses cannot be matched to the URL they answer (wrk
   * interleaves connections), so checks are self-consistent (the page holds what its URL asks).
   */
  readonly check?: string;
  /** Added to every walk value (default 0): the walk covers [start, start + count). */
  readonly start?: number;
  /** What every answer's body must hold, each text at least `times` (default 1) times. */
  readonly expect?: readonly AnswerCheck[];
  /** Texts no answer's body may hold (a GraphQL `"errors"` in an HTTP 200). */
  readonly reject?: readonly string[];
}

export interface AnswerCheck {
  readonly text: string;
  readonly times?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts plus answers other than 2xx. */
  readonly errors: number;
  /** 2xx answers whose body failed `expect` or `reject` (wrong shape, items missing, GraphQL errors). */
  readonly answerErrors: number;
  /** `x-cache` answers counted (walks and checked runs; null otherwise, to keep wrk's Lua off a hit's path). */
  readonly hits: number | null;
  readonly misses: number | null;
  /** Where the walk stopped: the offset that continues it without repeating. */
  readonly nextOffset: number;
}

/** The machine's wrk, installed from Debian's packages when missing (as root or with sudo). */
function installWrk(): boolean {
  if (spawnSync('wrk', ['-v']).error === undefined) return true;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = (args: string[]) => {
    const [cmd, ...rest] = [...sudo, 'apt-get', ...args];
    console.log(`  [bench] ${[cmd, ...rest].join(' ')}`);
    const result = spawnSync(cmd as string, rest, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return result.status === 0;
  };
  const install = () => apt(['install', '-y', '-qq', '--no-install-recommends', 'wrk']);
  if (!install() && !(apt(['update', '-qq']) && install())) return false;
  return spawnSync('wrk', ['-v']).error === undefined;
}

/** wrk when it is (or can be made) available, else autocannon; `forced` picks one. */
export function chooseLoader(forced: LoaderName | undefined): LoaderName {
  if (forced === 'autocannon') return 'autocannon';
  if (installWrk()) return 'wrk';
  if (forced === 'wrk') throw new Error('wrk is not installed and could not be installed with apt-get');
  console.log('  [bench] wrk could not be installed: autocannon generates the load instead');
  return 'autocannon';
}

/** A Lua string literal of any text (decimal escapes, so no quoting rule can be missed). */
const luaString = (text: string) =>
  `"${[...Buffer.from(text, 'utf8')].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`)).join('')}"`;

/** The Lua script of one wrk run: the walk, and `x-cache` and non-2xx counts per thread. */
function wrkScript(spec: LoadSpec, threads: number): string {
  const walk = spec.count > 0;
  return `
local template = ${JSON.stringify(spec.template)}
local count, offset, width, threads = ${spec.count}, ${spec.offset}, ${spec.width}, ${threads}
local all = {}
function setup(thread)
  thread:set("tid", #all)
  table.insert(all, thread)
end
local expect = { ${(spec.expect ?? []).map((c) => `{ ${luaString(c.text)}, ${c.times ?? 1} }`).join(', ')} }
local reject = { ${(spec.reject ?? []).map(luaString).join(', ')} }
function init(args)
  n, hits, misses, non2xx, wrong = 0, 0, 0, 0, 0
end
${spec.check === undefined ? 'local check = nil' : `local function check(body)\n${spec.check}\nend`}
${
  walk
    ? `function request()
  local v = tostring(${spec.start ?? 0} + (offset + tid + threads * n) % count)
  n = n + 1
  if #v < width then v = string.rep("0", width - #v) .. v end
  local path = template:gsub("{n}", function() return v end)
  return wrk.format("GET", path)
end`
    : ''
}
-- Occurrences of a plain text in s, counted up to max.
local function occurrences(s, text, max)
  local k, at = 0, 1
  while k < max do
    local i, j = string.find(s, text, at, true)
    if i == nil then break end
    k, at = k + 1, j + 1
  end
  return k
end
${
  walk || (spec.expect ?? []).length + (spec.reject ?? []).length > 0
    ? `function response(status, headers, body)
  local cache = headers["x-cache"] or headers["X-Cache"]
  if cache == "HIT" then hits = hits + 1 elseif cache == "MISS" then misses = misses + 1 end
  if status < 200 or status > 299 then non2xx = non2xx + 1; return end
  body = body or ""
  for _, c in ipairs(expect) do
    if occurrences(body, c[1], c[2]) < c[2] then wrong = wrong + 1; return end
  end
  for _, r in ipairs(reject) do
    if string.find(body, r, 1, true) then wrong = wrong + 1; return end
  end
  if check ~= nil and not check(body) then wrong = wrong + 1 end
end`
    : ''
}
function done(summary, latency, requests)
  local h, m, bad, w, maxn = 0, 0, 0, 0, 0
  for _, t in ipairs(all) do
    h = h + (t:get("hits") or 0)
    m = m + (t:get("misses") or 0)
    bad = bad + (t:get("non2xx") or 0)
    w = w + (t:get("wrong") or 0)
    maxn = math.max(maxn, t:get("n") or 0)
  end
  local e = summary.errors
  io.write(string.format('BENCH {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,' ..
    '"socket_errors":%d,"status_errors":%d,"hits":%d,"misses":%d,"non2xx":%d,"wrong":%d,"max_n":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status, h, m, bad, w, maxn))
end
`;
}

async function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const threads = Math.min(spec.connections, 2);
  const script = join(mkdtempSync(join(tmpdir(), 'lectern-wrk-')), 'scenario.lua');
  writeFileSync(script, wrkScript(spec, threads));
  const firstPath =
    spec.count > 0 ? spec.template.replace('{n}', String(spec.start ?? 0).padStart(spec.width, '0')) : spec.template;
  const { stdout } = await execFile(
    'wrk',
    [
      '--latency',
      '-t',
      String(threads),
      '-c',
      String(spec.connections),
      '-d',
      `${spec.seconds}s`,
      '--timeout',
      '10s',
      '-s',
      script,
      `${spec.baseUrl}${firstPath}`,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH '));
  if (line === undefined) throw new Error(`wrk printed no result:\n${stdout}`);
  const r = JSON.parse(line.slice('BENCH '.length)) as Record<string, number>;
  const checked = spec.count > 0 || (spec.expect ?? []).length + (spec.reject ?? []).length > 0;
  const seconds = (r['duration_us'] ?? 0) / 1e6;
  return {
    requests: r['requests'] ?? 0,
    seconds,
    requestsPerSecond: (r['requests'] ?? 0) / seconds,
    p50Ms: (r['p50_us'] ?? 0) / 1000,
    p99Ms: (r['p99_us'] ?? 0) / 1000,
    errors: (r['socket_errors'] ?? 0) + (checked ? (r['non2xx'] ?? 0) : (r['status_errors'] ?? 0)),
    answerErrors: r['wrong'] ?? 0,
    hits: checked ? (r['hits'] ?? 0) : null,
    misses: checked ? (r['misses'] ?? 0) : null,
    nextOffset: spec.offset + threads * ((r['max_n'] ?? 0) + 1),
  };
}

const autocannonRunner = new URL('./autocannon-run.ts', import.meta.url).pathname;

async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const { stdout } = await execFile(process.execPath, [autocannonRunner, JSON.stringify(spec)], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as LoadResult;
}

export function runLoad(loader: LoaderName, spec: LoadSpec): Promise<LoadResult> {
  return loader === 'wrk' ? runWrk(spec) : runAutocannon(spec);
}
