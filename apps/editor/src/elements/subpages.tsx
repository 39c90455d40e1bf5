import type { ElementProps } from './element-props.ts';
import { ModularContentElement } from './modular-content.tsx';

/** Subpages: linked items that form a page tree (Web Spotlight); edited like linked items. */
export function SubpagesElement(props: ElementProps) {
  return <ModularContentElement {...props} />;
}
