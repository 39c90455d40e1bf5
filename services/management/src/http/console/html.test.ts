import { describe, expect, it } from 'vitest';
import { html } from './html.ts';

describe('html templates', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const value = `<script>alert('x')</script>" onmouseover="y" &amp;`;
    expect(html`<p title="${value}">${value}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot; onmouseover=&quot;y&quot; &amp;amp;">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot; onmouseover=&quot;y&quot; &amp;amp;</p>',
    );
  });

  it('keeps nested templates as markup, and drops null, undefined and false', () => {
    const items = ['a<b', 'c'].map((i) => html`<li>${i}</li>`);
    // prettier-ignore
    const list = html`<ul>${items}</ul>${null}${undefined}${false}${0}`;
    expect(list.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0');
  });
});
