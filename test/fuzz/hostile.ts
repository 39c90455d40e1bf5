import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

/*
 * Hostile building blocks: strings no API should store as they are, JSON values of every shape,
 * path segments and query strings encoded well, badly and not at all, and bodies in every
 * encoding a client can claim.
 */

const pieces = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '😀',
  '\u0301',
  '\u202e',
  '\ufeff',
  '\uffff',
  '\u2028',
  '\u0085',
  '\u00a0',
  'é',
  '\u0001',
  '\t',
  '\n',
  '\r\n',
  ' ',
  '%',
  '%00',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%2F',
  '../',
  '/',
  '\\',
  '"',
  "'",
  '<script>',
  '&',
  '{',
  '}',
  '[',
  ']',
  '?',
  '#',
  ';',
  ',',
  '*',
  ':',
  '=',
  '+',
  '$',
  '__proto__',
  'constructor',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  'codename',
  'a',
];

/** A string built to break things: NUL, lone surrogates, emoji, control characters, percent garbage, long runs. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }).map((a) => a.join('')) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '😀', 'é', '\u0000', '%'), fc.integer({ min: 61, max: 5_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', '\ud800', 'ok \ud800', 'a\u0000b') },
);

/** Any JSON value, hostile strings included, nested up to a few levels. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('id', 'codename', 'external_id', 'value')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** UTF-8 bytes of a string, lone surrogates as their three-byte (WTF-8) form, which is not UTF-8. */
function wtf8(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes.push(...Buffer.from(text.slice(i, i + 2)));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      bytes.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
    } else bytes.push(...Buffer.from(text[i] as string));
  }
  return bytes;
}

/**
 * A string as it goes into a URL: percent-encoded properly, with its reserved characters left
 * raw, or as raw bytes (latin1: a byte per character, control characters included).
 */
export type UrlEncoding = 'encoded' | 'loose' | 'raw';

export function encodeForUrl(text: string, encoding: UrlEncoding): string {
  const bytes = wtf8(text);
  if (encoding === 'raw') return String.fromCharCode(...bytes);
  return bytes
    .map((b) => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9_.~-]/.test(c)) return c;
      if (encoding === 'loose' && b >= 0x21 && b <= 0x7e) return c;
      return hex(b);
    })
    .join('');
}

/** A path segment: a known good identifier, or a hostile one in some URL encoding. */
export function segment(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: known.length === 0 ? 0 : 3,
      arbitrary: known.length === 0 ? fc.constant('x') : fc.constantFrom(...known),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(hostileString, fc.constantFrom<UrlEncoding>('encoded', 'encoded', 'loose', 'raw'))
        .map(([s, e]) => encodeForUrl(s, e) || '%20'),
    },
    { weight: 1, arbitrary: fc.constantFrom('%E0%A4%A', '%zz', '%', '%00', 'a%00b', '%C0%AF', 'x'.repeat(201)) },
  );
}

/** A query string from `names` and `values` (and hostile ones), joined in varied ways. */
export function queryString(names: readonly string[], values: readonly string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: hostileString.map((s) => encodeForUrl(s, 'loose')) },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...values) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(hostileString, fc.constantFrom<UrlEncoding>('encoded', 'loose'))
        .map(([s, e]) => encodeForUrl(s, e)),
    },
  );
  const pair = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(name, value).map(([n, v]) => `${n}=${v}`) },
    { weight: 1, arbitrary: name },
    { weight: 1, arbitrary: fc.constantFrom('', '=', '&', '%', '==', '[]=', 'a[=b') },
  );
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));
}

/** The Content-Type and Content-Encoding a body claims, and the bytes it really has. */
export interface EncodedBody {
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | string | undefined;
}

const contentTypes = [
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nope',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  '*/*',
  'application/json, text/plain',
  'json',
];

/**
 * A body for `value` (serialised JSON), sent as a client might: as JSON, truncated, as garbage,
 * compressed with a codec its Content-Encoding names or with none, under any Content-Type.
 */
export function encodedBody(value: fc.Arbitrary<unknown>): fc.Arbitrary<EncodedBody> {
  const text = fc.oneof(
    { weight: 160, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 20, arbitrary: value.map((v) => (JSON.stringify(v) ?? 'null').slice(0, -1)) },
    { weight: 20, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 20, arbitrary: fc.constantFrom('', '{', '[]', '"\\ud800"', '{"a":"\\u0000"}', '[[[[[[[[[[[[', 'null') },
    // Over the 1 MiB JSON limit: rare, it costs a megabyte a time.
    { weight: 1, arbitrary: fc.constant(`{"name":"${'x'.repeat(1_100_000)}"}`) },
  );
  const encoding = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | null>(null) },
    { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'xx', 'gzip, gzip', 'GZIP', '') },
  );
  return fc
    .tuple(text, fc.constantFrom(...contentTypes), encoding, fc.boolean(), fc.nat(20))
    .map(([body, type, contentEncoding, isCompressed, dropRate]) => {
      const headers: Record<string, string> = {};
      if (type !== '') headers['content-type'] = type;
      if (contentEncoding === null) return { headers, body };
      headers['content-encoding'] = contentEncoding;
      if (!isCompressed) return { headers, body };
      const zlib = compressors[contentEncoding.toLowerCase().split(',')[0]?.trim() ?? ''];
      const packed = zlib ? zlib(Buffer.from(body)) : Buffer.from(body);
      // Sometimes cut the compressed stream short.
      return { headers, body: new Uint8Array(dropRate === 0 ? packed.subarray(0, packed.length >> 1) : packed) };
    });
}

const compressors: Record<string, (data: Buffer) => Buffer> = {
  gzip: (d) => gzipSync(d),
  deflate: (d) => deflateSync(d),
  br: (d) => brotliCompressSync(d),
};

/** Replaces, removes or adds one node of a JSON document, chosen by `pick`; the others stay. */
export function mutate(document: unknown, pick: number, action: number, value: unknown): unknown {
  const nodes: { parent: unknown[] | Record<string, unknown> | null; key: string | number }[] = [
    { parent: null, key: '' },
  ];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        nodes.push({ parent: node, key: i });
        walk(child);
      });
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        nodes.push({ parent: node as Record<string, unknown>, key });
        walk(child);
      }
    }
  };
  const copy = structuredClone(document);
  walk(copy);
  const target = nodes[pick % nodes.length] as (typeof nodes)[number];
  if (target.parent === null) return action % 5 === 0 ? value : copy;
  const parent = target.parent as Record<string | number, unknown>;
  switch (action % 4) {
    case 0:
      parent[target.key] = value;
      break;
    case 1:
      if (Array.isArray(parent)) parent.splice(target.key as number, 1);
      else delete parent[target.key];
      break;
    case 2:
      if (Array.isArray(parent)) parent.push(value);
      else parent[typeof value === 'string' ? value : 'extra'] = value;
      break;
    default: {
      // The key in another case, or a wrapped value.
      if (!Array.isArray(parent) && typeof target.key === 'string') {
        const moved = parent[target.key];
        delete parent[target.key];
        parent[target.key.toUpperCase()] = moved;
      } else parent[target.key] = [parent[target.key]];
    }
  }
  return copy;
}

/** A JSON body of a route: its valid `base` with one node mutated, or any hostile JSON value. */
export function bodyFrom(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 1, arbitrary: base },
    {
      weight: 6,
      arbitrary: fc
        .tuple(base, fc.nat(), fc.nat(), hostileJson)
        .map(([document, pick, action, value]) => mutate(document, pick, action, value)),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(base, fc.nat(), fc.nat(), hostileJson, fc.nat(), fc.nat(), hostileJson)
        .map(([document, p1, a1, v1, p2, a2, v2]) => mutate(mutate(document, p1, a1, v1), p2, a2, v2)),
    },
    { weight: 1, arbitrary: hostileJson },
  );
}

/** A hostile string as a header value Node sends: raw bytes, less the control characters it refuses. */
export function headerValue(text: string): string {
  return [...encodeForUrl(text, 'raw')]
    .filter((c) => {
      const code = c.charCodeAt(0);
      return code === 9 || (code >= 0x20 && code !== 0x7f);
    })
    .join('');
}
