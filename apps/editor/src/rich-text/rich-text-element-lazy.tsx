import { lazy, Suspense, type ComponentType } from 'react';
import type { RichTextComponent, RichTextElementProps } from './rich-text-element.tsx';

// ProseMirror and the editor load with the first rich text element shown, not with the app
// (the initial JavaScript budget is 250 KB compressed).
const Loaded = lazy(async () => ({
  default: (await import('./rich-text-element.tsx')).RichTextElement as ComponentType<RichTextElementProps>,
}));

/** `RichTextElement`, loaded on first use; the same props. */
export function LazyRichTextElement<C extends RichTextComponent>(props: RichTextElementProps<C>) {
  return (
    <Suspense
      fallback={
        <p className="rt-loading" role="status">
          Loading the rich text editor…
        </p>
      }
    >
      <Loaded {...(props as unknown as RichTextElementProps)} />
    </Suspense>
  );
}
