import type { ElementProps } from './element-props.ts';

/**
 * Guidelines as plain text. Types store them as HTML; the text is read out of an inert document
 * (DOMParser runs no script and loads nothing) and shown as text nodes, so nothing is injected.
 */
export function guidelinesText(html: string | null | undefined): string[] {
  if (!html) return [];
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blocks = doc.body.querySelectorAll('p, h1, h2, h3, h4, h5, h6, li, td, th');
  const lines =
    blocks.length > 0
      ? [...blocks].filter((b) => !b.querySelector('p, li, td')).map((b) => b.textContent ?? '')
      : [doc.body.textContent ?? ''];
  return lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter((l) => l !== '');
}

/** The text of guidelines, one paragraph a block. */
export function GuidelinesText({ html, id }: { html: string | null | undefined; id?: string }) {
  const lines = guidelinesText(html);
  if (lines.length === 0) return null;
  return (
    <div className="element-guidelines" id={id}>
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </div>
  );
}

/** A guidelines element: text for the writer, no value. */
export function GuidelinesElement({ element }: ElementProps) {
  return <GuidelinesText html={element['guidelines'] as string | null | undefined} />;
}
