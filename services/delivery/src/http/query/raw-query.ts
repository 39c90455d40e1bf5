import { invalidQuery } from '@lectern/read-path';

/** One `key=value` pair of a query string, percent-decoded; `value` is null when the pair has no `=`. */
export interface RawParam {
  readonly key: string;
  readonly value: string | null;
}

/** The longest query string accepted (SPEC 8 caps URLs at 2,000 characters; some slack for encoding). */
const maxQueryLength = 8_000;

function decode(text: string): string {
  try {
    // `+` is a space, as in HTML forms and ASP.NET (the .NET SDK percent-encodes a literal plus).
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw invalidQuery(`'${text.slice(0, 100)}' is not valid percent-encoding.`);
  }
}

/**
 * Splits the raw query string of a URL into decoded pairs, in order, repeats kept. Works on the
 * raw URL because the SDKs send values unencoded and operator brackets raw or as `%5B…%5D`
 * (reference 1.3); Fastify's parser would merge repeats and lose the difference between `a` and `a=`.
 */
export function splitRawQuery(url: string): RawParam[] {
  const at = url.indexOf('?');
  if (at < 0) return [];
  const query = url.slice(at + 1).split('#')[0] ?? '';
  if (query.length > maxQueryLength) throw invalidQuery('The query string is too long.');
  const out: RawParam[] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    out.push({ key, value: eq < 0 ? null : decode(part.slice(eq + 1)) });
  }
  return out;
}
