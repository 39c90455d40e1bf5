import { describe, expect, it } from 'vitest';
import { run, testRefs } from './test-support.ts';

const component = '46c05bd9-d418-4507-836c-9accc5a39db3';
const ko = 'type="application/kenticocloud"';

/** [value, the problems it gets, in order]; each value is refused (result null). */
const refusals: readonly (readonly [string, readonly string[]])[] = [
  // Top level: blocks only (SPEC 2.4 rule 1).
  ['<div>x</div>', ['Unsupported element <div> at top level (line 1, column 1); wrap text in <p>.']],
  [
    '<p>ok</p><a href="https://e.com">x</a>',
    ['Element <a> is not allowed at top level (line 1, column 10); put it inside <p>.'],
  ],
  [
    '<img src="https://e.com/i.png">',
    [
      'Element <img> is not allowed at top level (line 1, column 1); place images as <figure data-asset-id="…"></figure>.',
    ],
  ],
  ['Hello world', ['Text "Hello world" at top level (line 1, column 1) must be inside a block; wrap it in <p>.']],
  [
    '<p>a</p>\n  loose text that goes on and on and on',
    ['Text "loose text that goes on and on…" at top level (line 1, column 9) must be inside a block; wrap it in <p>.'],
  ],
  ['<strong>x</strong>', ['Element <strong> is not allowed at top level (line 1, column 1); put it inside <p>.']],
  ['<br>', ['Element <br> is not allowed at top level (line 1, column 1); put it inside <p>.']],
  ['<li>x</li>', ['Element <li> is not allowed at top level (line 1, column 1); <li> belongs in <ul> or <ol>.']],
  [
    '<blockquote>q</blockquote>',
    [
      'Unsupported element <blockquote> at top level (line 1, column 1); allowed at top level: <p>, <h1>–<h6>, <ul>, <ol>, <table>, <figure> and <object>.',
    ],
  ],
  [
    '<script>alert(1)</script>',
    [
      'Unsupported element <script> at top level (line 1, column 1); allowed at top level: <p>, <h1>–<h6>, <ul>, <ol>, <table>, <figure> and <object>.',
    ],
  ],
  ['<!-- note --><p>x</p>', ['HTML comments are not supported in rich text (line 1, column 1); remove the comment.']],
  // Inline content.
  ['<p><b>x</b></p>', ['Unsupported element <b> inside <p> (line 1, column 4); use <strong>.']],
  ['<p><i>x</i></p>', ['Unsupported element <i> inside <p> (line 1, column 4); use <em>.']],
  [
    '<p><u>x</u></p>',
    [
      'Unsupported element <u> inside <p> (line 1, column 4); allowed inside <p>: text, <strong>, <em>, <code>, <sub>, <sup>, <a> and <br>.',
    ],
  ],
  ['<p><span>x</span></p>', ['Unsupported element <span> inside <p> (line 1, column 4); remove it and keep its text.']],
  [
    '<p><img src="x"></p>',
    [
      'Element <img> is not allowed inside <p> (line 1, column 4); place images as <figure data-asset-id="…"></figure>.',
    ],
  ],
  [
    '<h2><object type="application/kenticocloud" data-type="component"></object></h2>',
    ['Element <object> is not allowed inside <h2> (line 1, column 5); <object> belongs in the top level.'],
  ],
  // Attributes.
  ['<p class="lead">x</p>', ['Unsupported attribute class on <p> (line 1, column 1); <p> takes no attributes.']],
  [
    '<p><strong style="color:red">x</strong></p>',
    ['Unsupported attribute style on <strong> (line 1, column 4); <strong> takes no attributes.'],
  ],
  [
    '<p><a href="https://e.com" target="_blank">x</a></p>',
    [
      'Unsupported attribute target on <a> (line 1, column 4); <a> takes only href, data-item-id, data-item-external-id, data-item-codename, data-asset-id, data-asset-external-id, data-asset-codename, data-email-address, data-phone-number, data-email-subject, data-new-window, title.',
    ],
  ],
  // Links.
  [
    '<p><a>x</a></p>',
    [
      '<a> (line 1, column 4) needs href, data-item-id (or data-item-external-id), data-asset-id, data-email-address or data-phone-number.',
    ],
  ],
  [
    '<p><a href="https://e.com" data-item-id="813db69a-3593-401b-8056-cbc6c779ada1">x</a></p>',
    [
      '<a> (line 1, column 4) takes only one of href, data-item-id (or data-item-external-id), data-asset-id, data-email-address or data-phone-number.',
    ],
  ],
  ['<p><a href=" ">x</a></p>', ['Attribute href on <a> (line 1, column 4) is empty; give the URL to link to.']],
  [
    '<p><a href="javascript:alert(1)">x</a></p>',
    ['Link <a> (line 1, column 4) uses the javascript: scheme, which is not allowed.'],
  ],
  [
    '<p><a href="java\tscript:alert(1)">x</a></p>',
    ['Link <a> (line 1, column 4) uses the javascript: scheme, which is not allowed.'],
  ],
  [
    '<p><a data-item-id="not-a-uuid">x</a></p>',
    ['Attribute data-item-id on <a> (line 1, column 4) is not a uuid: "not-a-uuid".'],
  ],
  [
    '<p><a data-item-id="813db69a-3593-401b-8056-cbc6c779ada1" data-item-external-id="x">x</a></p>',
    ['<a> (line 1, column 4) takes only one of data-item-id, data-item-external-id, data-item-codename.'],
  ],
  [
    '<p><a data-item-codename="about_us">x</a></p>',
    [
      'Attribute data-item-codename on <a> (line 1, column 4): references by codename are not supported in rich text; use data-item-id or data-item-external-id.',
    ],
  ],
  ['<p><a data-email-address="">x</a></p>', ['Attribute data-email-address on <a> (line 1, column 4) is empty.']],
  [
    '<p><a href="https://e.com" data-email-subject="s">x</a></p>',
    ['Attribute data-email-subject on <a> (line 1, column 4) belongs to email links (data-email-address).'],
  ],
  [
    '<p><a data-phone-number="1" data-new-window="true">x</a></p>',
    [
      'Attribute data-new-window on <a> (line 1, column 4) must be "true" and belongs to web and asset links (omit it to open in the same window).',
    ],
  ],
  // Figures.
  [
    '<figure></figure>',
    ['<figure> (line 1, column 1) needs data-asset-id, data-asset-external-id, data-asset-codename.'],
  ],
  [
    '<figure data-asset-id="x1"></figure>',
    ['Attribute data-asset-id on <figure> (line 1, column 1) is not a uuid: "x1".'],
  ],
  [
    '<figure data-asset-codename="logo"></figure>',
    [
      'Attribute data-asset-codename on <figure> (line 1, column 1): references by codename are not supported in rich text; use data-asset-id or data-asset-external-id.',
    ],
  ],
  [
    '<figure data-asset-external-id="asset1"><figcaption>c</figcaption></figure>',
    [
      '<figure> (line 1, column 1) holds only its asset reference, optionally with <img src="#" data-asset-id="…">; remove its other content.',
    ],
  ],
  [
    '<figure data-asset-external-id="asset1"><img src="#" data-asset-id="813db69a-3593-401b-8056-cbc6c779ada1"></figure>',
    [
      '<img> (line 1, column 41) names asset 813db69a-3593-401b-8056-cbc6c779ada1, but its <figure> places asset 00000000-0000-4000-a000-000000000001.',
    ],
  ],
  [
    '<figure data-asset-external-id="asset1"><img src="#" alt="a"></figure>',
    [
      'Unsupported attribute alt on <img> (line 1, column 41); <img> takes only src, data-asset-id, data-asset-external-id, data-asset-codename.',
    ],
  ],
  [
    '<figure data-asset-external-id="asset1"><img src="#" data-asset-external-id="asset2"></figure>',
    [
      '<img> (line 1, column 41) names asset 00000000-0000-4000-a000-000000000002, but its <figure> places asset 00000000-0000-4000-a000-000000000001.',
    ],
  ],
  // Objects.
  [
    '<object data-type="component" data-id="' + component + '"></object>',
    ['<object> (line 1, column 1) needs type="application/kenticocloud".'],
  ],
  [
    `<object type="text/html" data-type="component" data-id="${component}"></object>`,
    ['<object> (line 1, column 1) needs type="application/kenticocloud", not "text/html".'],
  ],
  [
    `<object ${ko} data-id="${component}"></object>`,
    ['<object> (line 1, column 1) needs data-type="component" or data-type="item".'],
  ],
  [
    `<object ${ko} data-type="link" data-id="${component}"></object>`,
    ['<object> (line 1, column 1) needs data-type="component" or data-type="item", not "link".'],
  ],
  [
    `<object ${ko} data-type="component" data-id="abc"></object>`,
    [`Component <object> (line 1, column 1) needs data-id with the component's uuid (found "abc").`],
  ],
  [
    `<object ${ko} data-type="component"></object>`,
    [`Component <object> (line 1, column 1) needs data-id with the component's uuid (found none).`],
  ],
  [
    `<object ${ko} data-type="component" data-external-id="c1"></object>`,
    ['Component <object> (line 1, column 1) is identified by data-id only; remove data-external-id.'],
  ],
  [
    `<object ${ko} data-type="component" data-id="${component}"></object><object ${ko} data-type="component" data-id="${component}"></object>`,
    [`Component ${component} (line 1, column 119) is placed more than once; each component appears once.`],
  ],
  [
    `<object ${ko} data-type="item" data-codename="hero"></object>`,
    [
      'Attribute data-codename on <object> (line 1, column 1): references by codename are not supported in rich text; use data-id or data-external-id.',
    ],
  ],
  [
    `<object ${ko} data-type="item" data-rel="component" data-id="${component}"></object>`,
    [
      'Unsupported attribute data-rel on <object> (line 1, column 1); <object> takes only type, data-type, data-id, data-external-id, data-codename.',
    ],
  ],
  [
    `<object ${ko} data-type="item" data-id="${component}">x</object>`,
    ['<object> (line 1, column 1) must be empty; write <object …></object>.'],
  ],
  // Lists.
  ['<ul><p>x</p></ul>', ['Element <p> (line 1, column 5) is misplaced: <ul> holds only <li> items.']],
  ['<ol>text<li>x</li></ol>', ['Text "text" (line 1, column 5) is misplaced: <ol> holds only <li> items.']],
  [
    '<ul><li><p>x</p></li></ul>',
    [
      'Element <p> is not allowed inside <li> (line 1, column 9); allowed inside <li>: text, <strong>, <em>, <code>, <sub>, <sup>, <a> and <br>, and nested <ul> or <ol>.',
    ],
  ],
  [
    '<ul type="disc"><li>x</li></ul>',
    ['Unsupported attribute type on <ul> (line 1, column 1); <ul> takes no attributes.'],
  ],
  // Tables.
  [
    '<table><thead><tr><td>h</td></tr></thead></table>',
    [
      'Element <thead> (line 1, column 8) is misplaced: <table> holds only <tbody> (put header rows in <tbody> with <td> cells).',
    ],
  ],
  [
    '<table><tr><th>h</th></tr></table>',
    ['Element <th> (line 1, column 12) is misplaced: <tr> holds only <td> (use <td>).'],
  ],
  [
    '<table><tr><td colspan="2">x</td></tr></table>',
    ['Unsupported attribute colspan on <td> (line 1, column 12); <td> takes no attributes.'],
  ],
  [
    '<table><caption>c</caption><tr><td>x</td></tr></table>',
    ['Element <caption> (line 1, column 8) is misplaced: <table> holds only <tbody>.'],
  ],
  [
    '<table><tr><td>text<p>para</p></td></tr></table>',
    [
      'Text "text" (line 1, column 16) is misplaced: a cell that holds blocks must have all its text inside <p> or another block.',
    ],
  ],
  [
    `<table><tr><td><p>x</p><object ${ko} data-type="component" data-id="${component}"></object></td></tr></table>`,
    [
      'Element <object> (line 1, column 24) is misplaced: a cell that holds blocks must have all its text inside <p> or another block.',
    ],
  ],
  [
    '<table><tr><td><p>a</p><table><tr><td>b</td></tr></table></td></tr></table>',
    [
      'Element <table> (line 1, column 24) is misplaced: a cell that holds blocks must have all its text inside <p> or another block.',
    ],
  ],
  // Malformed HTML the parser would silently reshape.
  [
    `<object ${ko} data-type="component" data-id="${component}"/><p>x</p>`,
    [
      'Malformed HTML at line 1, column 1: a self-closing tag such as <object … /> does not close the element in HTML; write an end tag, e.g. <object …></object>.',
      '<object> (line 1, column 1) must be empty; write <object …></object>.',
    ],
  ],
  [
    '<p title="a" title="b">x</p>',
    [
      'Malformed HTML at line 1, column 19: an attribute is repeated in one tag.',
      'Unsupported attribute title on <p> (line 1, column 1); <p> takes no attributes.',
    ],
  ],
  ['<p>x</p><p class="y', ['Malformed HTML at line 1, column 20: the value ends inside a tag.']],
  ['<p>1 <2</p>', ['Malformed HTML at line 1, column 7: a "<" does not start a tag; write &lt; for a literal "<".']],
];

describe('normalizeRichText: refusals', () => {
  it.each(refusals)('%j', (input, messages) => {
    const outcome = run(input);
    expect(outcome.result).toBeNull();
    expect(outcome.messages).toEqual(messages);
    for (const problem of outcome.problems) expect(problem.path).toBe('elements[2].value');
  });

  it('does not let a link sit inside a link (the parser splits them, so both survive separately)', () => {
    const outcome = run('<p><a href="https://a.com">a<a href="https://b.com">b</a></a></p>');
    expect(outcome.result?.html).toBe('<p><a href="https://a.com">a</a><a href="https://b.com">b</a></p>');
  });

  it('reports every problem of a value at once', () => {
    const outcome = run('<div>a</div><p class="x"><b>b</b></p>text<img>');
    expect(outcome.result).toBeNull();
    expect(outcome.messages).toHaveLength(5);
  });

  it('summarises problems beyond twenty', () => {
    const outcome = run('<div>x</div>'.repeat(50));
    expect(outcome.result).toBeNull();
    expect(outcome.messages).toHaveLength(21);
    expect(outcome.messages[20]).toBe('…and 30 more problems in this rich text value.');
  });

  it('refuses very deep nesting without overflowing the stack', () => {
    const outcome = run(`<p>${'<em>'.repeat(5000)}x${'</em>'.repeat(5000)}</p>`);
    expect(outcome.result).toBeNull();
    expect(outcome.messages).toEqual(['<em> (line 1, column 160) is nested more than 40 levels deep.']);
  });

  it.each([
    [null, 'null'],
    [42, 'a number'],
    [true, 'a boolean'],
    [['<p>x</p>'], 'an array'],
    [{ value: '<p>x</p>' }, 'a object'],
    [undefined, 'a undefined'],
  ])('refuses a non-string value %j', (value, what) => {
    const outcome = run(value);
    expect(outcome.result).toBeNull();
    expect(outcome.problems).toEqual([
      { path: 'elements[2].value', message: `Rich text value must be a string of HTML, not ${what}.` },
    ]);
  });

  it('never throws on arbitrary input', () => {
    const samples = [
      '<',
      '<<>>',
      '</p>',
      '<p',
      '<p>&',
      '&#xD800;',
      '\u0000',
      '<svg><p>x</p></svg>',
      '<template><p>x</p></template>',
      '<math><mi>x</mi></math>',
      '<![CDATA[x]]>',
      '<!doctype html><p>x</p>',
      '<html><body><p>x</p></body></html>',
      '<table><td>x',
      '<li><ul><li>',
      '<a href="x"><p>y</p></a>',
    ];
    for (const sample of samples) expect(() => run(sample, testRefs())).not.toThrow();
  });
});
