/**
 * Generators of hostile GraphQL documents (issue 27), shared by the tests and the
 * `bench:graphql-hostile` script. Each targets a content type `Article` with a linked-items
 * element whose field is `link` (`related` in the unit tests' model, `authors` in the demo
 * project's) and a text element `title`.
 */
export interface HostileOptions {
  readonly link: string;
}

/** A linked-items field nested `levels` deep under a list of articles (finding 2: 66 levels, ~2.8 kB). */
export function nestedLinks(levels: number, { link }: HostileOptions): string {
  let inner = 'title';
  for (let i = 0; i < levels; i += 1) inner = `${link} { items { ... on Article { ${inner} } } }`;
  return `{ article_All { items { ${inner} } } }`;
}

/** Distinct aliases of one text field, up to `bytes` long: wide but cheap to merge. */
export function aliasedFields(bytes: number): string {
  const fields: string[] = [];
  let length = 40;
  for (let i = 0; length < bytes; i += 1) {
    const field = `a${i}: title`;
    fields.push(field);
    length += field.length + 1;
  }
  return `{ article_All { items { ${fields.join(' ')} } } }`;
}

/** One selection repeated under the same response name, up to `bytes`: every pair must be merged. */
export function repeatedField(bytes: number, field: string): string {
  const count = Math.max(1, Math.floor((bytes - 40) / (field.length + 1)));
  return `{ article_All { items { ${Array.from({ length: count }, () => field).join(' ')} } } }`;
}

/** A linked-items selection repeated up to `bytes`. */
export function repeatedLinks(bytes: number, { link }: HostileOptions): string {
  return repeatedField(bytes, `${link} { items { __typename } }`);
}

/** Each fragment spreads the next twice: 2^levels fields once expanded, in a few hundred bytes. */
export function fragmentBomb(levels: number): string {
  const fragments = Array.from(
    { length: levels },
    (_, i) => `fragment F${i} on Article { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'title'} }`,
  );
  return `{ article_All { items { ...F0 } } } ${fragments.join(' ')}`;
}

/** Each fragment holds the next twice under two aliased linked-items fields: exponential and deep. */
export function nestedFragmentBomb(levels: number, { link }: HostileOptions): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i + 1 < levels
      ? `fragment F${i} on Article { a: ${link} { items { ...F${i + 1} } } b: ${link} { items { ...F${i + 1} } } }`
      : `fragment F${i} on Article { title }`,
  );
  return `{ article_All { items { ...F0 } } } ${fragments.join(' ')}`;
}

/** `count` fragments, each selecting the same linked-items field, all spread in one selection set. */
export function manyFragments(count: number, { link }: HostileOptions): string {
  const spreads = Array.from({ length: count }, (_, i) => `...F${i}`).join(' ');
  const fragments = Array.from(
    { length: count },
    (_, i) => `fragment F${i} on Article { ${link} { items { __typename } } }`,
  );
  return `{ article_All { items { ${spreads} } } } ${fragments.join(' ')}`;
}

/** Two lists of 20 articles with up to 20 linked items each: complexity 2 × (20 + 20 × 20) = 840. */
function twoLists(limit: string, link: string): string {
  const list = `article_All(limit: ${limit}) { items { ${link}(limit: ${limit}) { items { __typename } } } }`;
  return `a: ${list} b: ${list}`;
}

/** Finding 6: the page size as a variable's default, the variable omitted (it was counted as 10: 220). */
export function limitByDefault({ link }: HostileOptions): string {
  return `query($l: Int = 20) { ${twoLists('$l', link)} }`;
}

/** The literal twin of `limitByDefault`, refused at complexity 840. */
export function limitLiteral({ link }: HostileOptions): string {
  return `{ ${twoLists('20', link)} }`;
}

/**
 * Many aliases of one field on each of 20 linked items of 20 articles: complexity 420 only, yet
 * 600 aliases make an answer of 240,000 values (it held the event loop 0.6 s on 420 such items).
 */
export function wideLinkedItems(aliases: number, o: HostileOptions & { type: string; field: string }): string {
  const fields = Array.from({ length: aliases }, (_, i) => `a${i}: ${o.field}`).join(' ');
  return `{ article_All(limit: 20) { items { ${o.link}(limit: 20) { items { ... on ${o.type} { ${fields} } } } } } }`;
}

/** Lists nested `levels` deep in an argument: graphql-js parses them recursively (about 2,000 overflow its stack). */
export function nestedLists(levels: number): string {
  return `{ article_All(where: { title: { in: ${'['.repeat(levels)}${']'.repeat(levels)} } }) { totalCount } }`;
}
