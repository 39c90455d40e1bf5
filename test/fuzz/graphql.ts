import fc from 'fast-check';
import type { FuzzRequest } from './client.ts';
import { encodeForUrl, encodedBody, hostileJson, hostileString } from './hostile.ts';
import type { Known } from './target.ts';

/*
 * Malformed GraphQL requests (SPEC 4.4, 8): queries built from the project's names and then
 * broken (cut short, spliced with hostile text, nested past the limits, fragment bombs, bad
 * arguments and variables), sent by GET, by POST as JSON (or hostile JSON) and as
 * application/graphql, under any Content-Type.
 */

const camel = (codename: string) =>
  codename.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/_/g, '');

function queries(k: Known): fc.Arbitrary<string> {
  const roots = k.typeCodenames.map(camel);
  const root = fc.constantFrom(...(roots.length > 0 ? roots : ['article']));
  const field = fc.constantFrom(...k.elementCodenames.map(camel), '_system_ { codename }', '__typename', 'nope');
  const value = fc.oneof(
    fc.constantFrom('1', '-1', '0', '21', '1000000', '99999999999', '1.5', 'null', 'true', '"x"', '$v', '[]', '{}'),
    hostileString.map((s) => JSON.stringify(s)),
  );
  const arg = fc
    .tuple(fc.constantFrom('limit', 'offset', 'codename', 'id', 'languageFilter', 'where', 'order', 'x'), value)
    .map(([name, v]) => `${name}: ${v}`);
  const where = fc
    .tuple(field, fc.constantFrom('eq', 'notEq', 'lt', 'in', 'isEmpty', 'containsAny', 'value'), value)
    .map(([f, op, v]) => `where: { ${f.split(' ')[0]}: { ${op}: ${v} } }`);
  const wellFormed = fc
    .tuple(root, fc.array(fc.oneof(arg, where), { maxLength: 3 }), fc.array(field, { minLength: 1, maxLength: 4 }))
    .map(([r, args, fields]) => {
      const list = args.length === 0 ? '' : `(${args.join(', ')})`;
      return `query Q($v: Int) { ${r}_All${list} { totalCount items { ${fields.join(' ')} } } ${r}${list} { ${fields.join(' ')} } }`;
    });
  const nested = fc.integer({ min: 1, max: 400 }).map((n) => `{ ${'a { '.repeat(n)}b${' }'.repeat(n)} }`);
  const aliases = fc
    .tuple(root, fc.integer({ min: 1, max: 300 }))
    .map(
      ([r, n]) =>
        `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${r}_All(limit: 20) { items { __typename } }`).join(' ')} }`,
    );
  const bomb = fc
    .integer({ min: 2, max: 40 })
    .map(
      (n) =>
        `{ __typename ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on _RootQuery { __typename ${i + 1 < n ? `...F${i + 1} ...F${i + 1}` : ''} }`).join(' ')}`,
    );
  const cycle = fc.constant('{ ...A } fragment A on _RootQuery { ...B } fragment B on _RootQuery { ...A }');
  return fc.oneof(
    { weight: 6, arbitrary: wellFormed },
    { weight: 2, arbitrary: fc.tuple(wellFormed, fc.nat()).map(([q, n]) => q.slice(0, n % (q.length + 1))) },
    {
      weight: 2,
      arbitrary: fc.tuple(wellFormed, fc.nat(), hostileString).map(([q, n, h]) => q.slice(0, n % q.length) + h),
    },
    { weight: 1, arbitrary: nested },
    { weight: 1, arbitrary: aliases },
    { weight: 1, arbitrary: bomb },
    { weight: 1, arbitrary: cycle },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'mutation { x }',
        'subscription { x }',
        '',
        ' ',
        '{',
        '}',
        '{ __schema { types { name } } }',
      ),
    },
    { weight: 2, arbitrary: hostileString },
  );
}

/** Requests for `/{project_id}` of the GraphQL listener. */
export function graphqlRequests(k: Known): fc.Arbitrary<FuzzRequest> {
  const path = fc.constantFrom(`/${k.projectId}`, `/${k.projectId}/`, `/${k.projectId.toUpperCase()}`);
  const base = { api: 'graphql' as const, family: 'graphql', isWrite: false };
  const variables = fc.oneof(fc.constant(undefined), hostileJson, fc.constant({ v: 1 }));
  const get = fc
    .tuple(
      path,
      queries(k),
      fc.constantFrom<'encoded' | 'loose' | 'raw'>('encoded', 'encoded', 'loose', 'raw'),
      variables,
    )
    .map(([p, q, encoding, v]): FuzzRequest => {
      const vars = v === undefined ? '' : `&variables=${encodeForUrl(JSON.stringify(v) ?? 'null', 'encoded')}`;
      return { ...base, method: 'GET', path: `${p}?query=${encodeForUrl(q, encoding)}${vars}`, headers: {} };
    });
  const postJson = fc
    .tuple(
      path,
      fc.oneof(
        fc
          .tuple(queries(k), variables, fc.oneof(fc.constant(undefined), hostileJson))
          .map(([query, v, operationName]) => ({ query, variables: v, operationName })),
        hostileJson,
      ),
    )
    .chain(([p, body]) =>
      encodedBody(fc.constant(body)).map((e): FuzzRequest => ({
        ...base,
        method: 'POST',
        path: p,
        headers: e.headers,
        ...(e.body === undefined ? {} : { body: e.body }),
      })),
    );
  const postRaw = fc
    .tuple(
      path,
      queries(k),
      fc.constantFrom(
        'application/graphql',
        'application/graphql; charset=utf-8',
        'application/graphql; charset=latin1',
      ),
    )
    .map(([p, q, type]): FuzzRequest => ({
      ...base,
      method: 'POST',
      path: p,
      headers: { 'content-type': type },
      body: q,
    }));
  return fc.oneof({ weight: 3, arbitrary: get }, { weight: 3, arbitrary: postJson }, { weight: 2, arbitrary: postRaw });
}
