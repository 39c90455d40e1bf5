import { describe, expect, it } from 'vitest';
import { emptyRichText } from './index.ts';
import { accept, asset, item, run, testRefs } from './test-support.ts';

const component = '46c05bd9-d418-4507-836c-9accc5a39db3';
const component2 = 'fbc30fa8-0972-4708-acd3-62a353efecdf';
const uuidA = '813db69a-3593-401b-8056-cbc6c779ada1';
const obj = (dataType: string, id: string): string =>
  `<object type="application/kenticocloud" data-type="${dataType}" data-id="${id}"></object>`;
const fig = (id: string): string => `<figure data-asset-id="${id}"><img src="#" data-asset-id="${id}"></figure>`;

/** [request value, response form]; every response form is also checked to be a fixed point. */
export const conversions: readonly (readonly [string, string])[] = [
  // Recorded exchange: whitespace between top-level blocks is dropped (REC-v2 UpsertVariant).
  [
    `      <h1>Light Roasts</h1>      <p>Usually roasted.</p>      ${obj('component', component)}      `,
    `<h1>Light Roasts</h1><p>Usually roasted.</p>${obj('component', component)}`,
  ],
  ['<p>a</p>\n<p>b</p>\r\n\t<h2>c</h2>', '<p>a</p><p>b</p><h2>c</h2>'],
  [
    '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>',
    '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>',
  ],
  // Inline formatting, line breaks written <br/> as in responses.
  [
    '<p><strong>b</strong> <em>i</em> <code>c</code> H<sub>2</sub>O x<sup>2</sup><br>next<br />last</p>',
    '<p><strong>b</strong> <em>i</em> <code>c</code> H<sub>2</sub>O x<sup>2</sup><br/>next<br/>last</p>',
  ],
  ['<p><em><strong>Americano</strong></em></p>', '<p><em><strong>Americano</strong></em></p>'],
  // Whitespace inside a paragraph is content and kept.
  ['<p>  two  spaces\n and a line </p>', '<p>  two  spaces\n and a line </p>'],
  // Figures: external id and id forms; the response form is accepted back.
  ['<figure data-asset-external-id="asset7"></figure>', fig(asset(7))],
  [`<figure data-asset-id="${uuidA}"></figure>`, fig(uuidA)],
  [fig(uuidA), fig(uuidA)],
  [`<figure data-asset-id="${uuidA}">\n  <img src="#" data-asset-id="${uuidA}">\n</figure>`, fig(uuidA)],
  // data-ops rewrites both attributes of an exported figure to the external id form.
  ['<figure data-asset-external-id="asset7"><img src="#" data-asset-external-id="asset7"></figure>', fig(asset(7))],
  [`<figure data-asset-external-id="asset7"><img src="#" data-asset-id="${asset(7)}"></figure>`, fig(asset(7))],
  // Item links.
  ['<p><a data-item-external-id="item3">x</a></p>', `<p><a data-item-id="${item(3)}">x</a></p>`],
  [
    `<p><a data-item-id="${uuidA}">source our coffees</a></p>`,
    `<p><a data-item-id="${uuidA}">source our coffees</a></p>`,
  ],
  // Web links: missing scheme gets http:// (rule 4); title kept unchanged (rule 7).
  ['<p><a href="example.com/a?b=1&amp;c=2">x</a></p>', '<p><a href="http://example.com/a?b=1&amp;c=2">x</a></p>'],
  ['<p><a href="dancinggoat@localhost.local">m</a></p>', '<p><a href="http://dancinggoat@localhost.local">m</a></p>'],
  ['<p><a href="//cdn.example.com/x">x</a></p>', '<p><a href="http://cdn.example.com/x">x</a></p>'],
  ['<p><a href="  https://example.com  ">x</a></p>', '<p><a href="https://example.com">x</a></p>'],
  [
    '<p><a href="mailto:a@b.c">x</a> <a href="ftp://f">y</a></p>',
    '<p><a href="mailto:a@b.c">x</a> <a href="ftp://f">y</a></p>',
  ],
  [
    '<p><a title=" Keep  me &amp; &quot;this&quot; " href="https://e.com" data-new-window="true">x</a></p>',
    '<p><a href="https://e.com" data-new-window="true" title=" Keep  me &amp; &quot;this&quot; ">x</a></p>',
  ],
  [
    `<p><a data-item-external-id="item1" title='It"s'>x</a></p>`,
    `<p><a data-item-id="${item(1)}" title="It&quot;s">x</a></p>`,
  ],
  // Email, phone and asset links.
  [
    '<p><a data-email-subject="Hi &amp; bye" data-email-address="a@b.c">mail</a> <a data-phone-number="+1 555">call</a></p>',
    '<p><a data-email-address="a@b.c" data-email-subject="Hi &amp; bye">mail</a> <a data-phone-number="+1 555">call</a></p>',
  ],
  [
    '<p><a data-asset-external-id="asset2" data-new-window="true">pdf</a></p>',
    `<p><a data-asset-id="${asset(2)}" data-new-window="true">pdf</a></p>`,
  ],
  // Formatting inside links and links inside formatting.
  [
    '<p><strong><a href="https://e.com"><em>x</em><br>y</a></strong></p>',
    '<p><strong><a href="https://e.com"><em>x</em><br/>y</a></strong></p>',
  ],
  // Components and linked items.
  [obj('component', component), obj('component', component)],
  [obj('component', component.toUpperCase()), obj('component', component)],
  ['<object type="application/kenticocloud" data-type="item" data-external-id="item9"></object>', obj('item', item(9))],
  [obj('item', uuidA), obj('item', uuidA)],
  [
    `<object data-id="${component}" data-type="component" type="application/kenticocloud">  </object>`,
    obj('component', component),
  ],
  // Lists, nested lists; whitespace between items is kept (recorded responses keep it).
  ['<ul>  <li>a</li>  <li>b</li></ul>', '<ul>  <li>a</li>  <li>b</li></ul>'],
  [
    '<ol><li>one<ul><li>one.a<ol><li>deep <strong>x</strong></li></ol></li></ul></li><li>two</li></ol>',
    '<ol><li>one<ul><li>one.a<ol><li>deep <strong>x</strong></li></ol></li></ul></li><li>two</li></ol>',
  ],
  ['<ul><li>a<br>b <a href="x.y">l</a></li></ul>', '<ul><li>a<br/>b <a href="http://x.y">l</a></li></ul>'],
  // Tables: tbody is implied, cells hold inline content or blocks (text, headings, lists, images).
  ['<table><tr><td>1</td><td>2</td></tr></table>', '<table><tbody><tr><td>1</td><td>2</td></tr></tbody></table>'],
  [
    `<table>\n<tbody>\n<tr><td><p>a</p><h3>b</h3><ul><li>c</li></ul><figure data-asset-external-id="asset1"></figure></td><td><strong>d</strong></td></tr>\n</tbody>\n</table>`,
    `<table>\n<tbody>\n<tr><td><p>a</p><h3>b</h3><ul><li>c</li></ul>${fig(asset(1))}</td><td><strong>d</strong></td></tr>\n</tbody>\n</table>`,
  ],
  [
    '<table><tbody><tr><td></td></tr><tr></tr></tbody></table>',
    '<table><tbody><tr><td></td></tr><tr></tr></tbody></table>',
  ],
  // Entities and escaping: text keeps &amp; &lt; &gt; &nbsp; escaped, other characters as written.
  [
    '<p>Caffeine: &lt; 100 mg &amp; Oil: &gt; 2&nbsp;mg &quot;q&quot; &#39;a&#39; &copy; ’</p>',
    '<p>Caffeine: &lt; 100 mg &amp; Oil: &gt; 2&nbsp;mg "q" \'a\' © ’</p>',
  ],
  ['<p>Tom &amp Jerry, AT&T, 5 > 3</p>', '<p>Tom &amp; Jerry, AT&amp;T, 5 &gt; 3</p>'],
  ['<p>\u00a0</p><p>ok</p>', '<p>&nbsp;</p><p>ok</p>'],
  [
    '<p><a href="https://e.com/?q=&lt;b&gt;&amp;x=&quot;1&quot;">x</a></p>',
    '<p><a href="https://e.com/?q=&lt;b&gt;&amp;x=&quot;1&quot;">x</a></p>',
  ],
  // Implicitly closed paragraphs are valid HTML and come back closed.
  ['<p>a<p>b', '<p>a</p><p>b</p>'],
  // Upper-case tags are HTML too.
  ['<P>A<BR></P>', '<p>A<br/></p>'],
  // A paragraph that is empty but not alone stays as written.
  ['<p></p><p>x</p>', '<p></p><p>x</p>'],
  // Recorded response (SDK-NET fixture) without its newlines.
  [
    `<p>Stars:&nbsp;</p>${obj('item', uuidA)}<p><br/></p><p>See <a data-item-id="${uuidA}">Tom Hardy</a></p>${fig(uuidA)}${obj('component', component2)}`,
    `<p>Stars:&nbsp;</p>${obj('item', uuidA)}<p><br/></p><p>See <a data-item-id="${uuidA}">Tom Hardy</a></p>${fig(uuidA)}${obj('component', component2)}`,
  ],
];

describe('normalizeRichText: conversions to the response form', () => {
  it.each(conversions)('%j', (input, expected) => {
    expect(accept(input)).toBe(expected);
  });

  it('is idempotent: every response form normalises to itself', () => {
    for (const [input, expected] of conversions) {
      const once = accept(input);
      expect(accept(once), input).toBe(once);
      expect(accept(expected), input).toBe(expected);
    }
  });
});

describe('normalizeRichText: empty values', () => {
  it.each(['', '   ', '\n\t ', '<p></p>', '<p><br></p>', '<p><br/></p>', ' <p> <br> </p> ', '<p><br><br></p>'])(
    '%j becomes the empty value',
    (input) => {
      const outcome = run(input);
      expect(outcome.result).toEqual({ html: emptyRichText, componentIds: [], itemIds: [], assetIds: [] });
    },
  );

  it('uses the recorded form <p><br/></p>', () => {
    expect(emptyRichText).toBe('<p><br/></p>');
  });

  it('keeps a paragraph with a no-break space (content, not whitespace)', () => {
    expect(accept('<p>&nbsp;</p>')).toBe('<p>&nbsp;</p>');
  });
});

describe('normalizeRichText: referenced ids', () => {
  it('lists components in document order and items and assets once each, in document order', () => {
    const refs = testRefs();
    const outcome = run(
      [
        obj('component', component2),
        '<p><a data-item-external-id="item2">a</a><a data-item-external-id="item1">b</a></p>',
        obj('item', item(2)),
        '<figure data-asset-external-id="asset5"></figure>',
        obj('component', component),
        '<p><a data-asset-id="' + asset(5) + '">again</a><a data-asset-external-id="asset4">other</a></p>',
      ].join(''),
      refs,
    );
    expect(outcome.result?.componentIds).toEqual([component2, component]);
    expect(outcome.result?.itemIds).toEqual([item(2), item(1)]);
    expect(outcome.result?.assetIds).toEqual([asset(5), asset(4)]);
    expect(refs.calls).toEqual([
      'item {"external_id":"item2"} @elements[2].value',
      'item {"external_id":"item1"} @elements[2].value',
      `item {"id":"${item(2)}"} @elements[2].value`,
      'asset {"external_id":"asset5"} @elements[2].value',
      `asset {"id":"${asset(5)}"} @elements[2].value`,
      'asset {"external_id":"asset4"} @elements[2].value',
    ]);
  });

  it('reports component ids in lower case, as written back', () => {
    expect(run(obj('component', component.toUpperCase())).result?.componentIds).toEqual([component]);
  });

  it('returns null when a resolver refuses, leaving the problem to the resolver', () => {
    const outcome = run(
      '<p><a data-item-external-id="missing">x</a></p><figure data-asset-external-id="nope"></figure>',
    );
    expect(outcome.result).toBeNull();
    expect(outcome.messages).toEqual(['No item missing.', 'No asset nope.']);
  });

  it('resolves codenames through the optional resolvers when the caller offers them', () => {
    const refs = testRefs({ hasCodenames: true });
    const html =
      '<p><a data-item-codename="item4">x</a></p>' +
      '<object type="application/kenticocloud" data-type="item" data-codename="item5"></object>' +
      '<figure data-asset-codename="asset6"></figure>';
    expect(accept(html, refs)).toBe(`<p><a data-item-id="${item(4)}">x</a></p>${obj('item', item(5))}${fig(asset(6))}`);
    expect(refs.calls).toEqual([
      'item codename item4 @elements[2].value',
      'item codename item5 @elements[2].value',
      'asset codename asset6 @elements[2].value',
    ]);
  });

  it("accepts a figure's inner <img> that names the asset by codename", () => {
    const refs = testRefs({ hasCodenames: true });
    const html = '<figure data-asset-codename="asset6"><img src="#" data-asset-codename="asset6"></figure>';
    expect(accept(html, refs)).toBe(fig(asset(6)));
  });
});

describe('normalizeRichText: a large document', () => {
  it('converts, stays a fixed point, and collects every reference', () => {
    const parts: string[] = [];
    const expected: string[] = [];
    for (let n = 0; n < 1500; n += 1) {
      const para = `<p>Paragraph ${n} with <strong>bold</strong>, <a href="example.com/${n}">a link</a> &amp; more.</p>`;
      parts.push(para, '\n');
      expected.push(para.replace('href="example.com', 'href="http://example.com'));
      if (n % 10 === 0) {
        parts.push(`<figure data-asset-external-id="asset${n}"></figure>`);
        expected.push(fig(asset(n)));
      }
      if (n % 25 === 0) {
        const list = `<ul><li>x<ol><li>y ${n}</li></ol></li></ul><table><tbody><tr><td>${n}</td></tr></tbody></table>`;
        parts.push(list);
        expected.push(list);
      }
    }
    const outcome = run(parts.join(''));
    expect(outcome.messages).toEqual([]);
    expect(outcome.result?.html).toBe(expected.join(''));
    expect(outcome.result?.assetIds).toHaveLength(150);
    expect(accept(outcome.result?.html)).toBe(outcome.result?.html);
  });
});
