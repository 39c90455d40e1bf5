import { useEffect, useRef, useState } from 'react';
import { AssetPicker } from '../ui/asset-picker.tsx';
import { idsOf, loadAssetDetails, loadItemDetails } from './custom-details.ts';
import type { ElementProps, FormScope } from './element-props.ts';
import { useFormScope } from './element-props.ts';
import { ItemPicker } from './item-picker.tsx';

/** A message of the Kontent.ai custom element protocol (`{type, data, requestId}`). */
interface ProtocolMessage {
  readonly type: string;
  readonly data?: Record<string, unknown>;
  readonly requestId?: string;
}

function parseConfig(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url, window.location.href).origin;
  } catch {
    return 'null';
  }
}

/** The current value of the form's element with `codename` (undefined when there is none). */
function valueOf(scope: FormScope, codename: string): unknown {
  const el = scope.elements.find((e) => e.codename === codename);
  return el ? scope.values.get(el.id)?.value : undefined;
}

/** The value another element has, as the protocol's `get-value-request` answers it. */
function otherValue(scope: FormScope, element: ElementProps['element'], codename: unknown): Record<string, unknown> {
  const allowed = ((element['allowed_elements'] ?? []) as { id: string }[]).map((e) => e.id);
  const other = scope.elements.find((e) => e.codename === codename);
  if (!other || !allowed.includes(other.id))
    return { error: `The element '${String(codename)}' is not one this custom element may read.` };
  return { value: scope.values.get(other.id)?.value ?? null };
}

/**
 * A custom element: the element's `source_url` in a sandboxed iframe, speaking the Kontent.ai
 * custom element protocol over postMessage — `init-data-request` (value, disabled, config from
 * `json_parameters`, the item and language), `set-value-request` (a string or null, or
 * `{value, searchableValue}`), `set-height-request`, `get-value-request` and
 * `observe-element-changes` for the elements in `allowed_elements`; `on-disabled-changed` when the
 * form becomes read-only or editable. The newer methods (docs/editor/in-context.md):
 * `select-assets-request` and `select-items-request` open Lectern's asset and item pickers and
 * answer the chosen references (null when the dialog is closed), `get-asset-details-request` and
 * `get-item-details-request` answer details of up to 100 ids, `observe-item-changes` is told of
 * the item's name changes (`on-item-changed`). Messages are taken only from this iframe's window
 * and answered only to its origin. The value is stored as a string, as the Management API stores it.
 */
export function CustomElement({ element, value, onChange, isReadOnly, inputId, describedBy }: ElementProps) {
  const scope = useFormScope();
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(200);
  const sourceUrl = typeof element['source_url'] === 'string' ? element['source_url'] : '';
  const origin = originOf(sourceUrl);
  const latest = useRef({ value, isReadOnly, scope, onChange });
  latest.current = { value, isReadOnly, scope, onChange };
  const observers = useRef<{ requestId: string; codenames: string[] }[]>([]);
  const itemObservers = useRef<string[]>([]);
  const [dialog, setDialog] = useState<{
    kind: 'assets' | 'items';
    requestId?: string;
    multiple: boolean;
    images: boolean;
  } | null>(null);
  /** The value each observed element had when last reported (by `${requestId}:${codename}`). */
  const seen = useRef(new Map<string, { value: unknown }>());

  const post = (message: ProtocolMessage) => frame.current?.contentWindow?.postMessage(message, origin);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const own = frame.current?.contentWindow;
      // Only this iframe's window, and only while it shows the element's own origin.
      if (!own || event.source !== own || event.origin !== origin) return;
      const message = event.data as ProtocolMessage | null;
      if (!message || typeof message.type !== 'string') return;
      const { value: current, isReadOnly: disabled, scope: s, onChange: change } = latest.current;
      const data = message.data ?? {};
      const reply = (type: string, body: Record<string, unknown>) =>
        post({ type, data: body, requestId: message.requestId });
      switch (message.type) {
        case 'init-data-request':
          reply('init-data-response', {
            element: { value: current.value ?? null, disabled, config: parseConfig(element['json_parameters']) },
            context: {
              projectId: s.projectId,
              item: s.item
                ? {
                    id: s.item.id,
                    codename: s.item.codename,
                    name: s.item.name,
                    ...(s.item.collection ? { collection: { id: s.item.collection.id } } : {}),
                  }
                : null,
              variant: { id: s.language.id, codename: s.language.codename },
            },
          });
          break;
        case 'set-value-request': {
          if (disabled) return reply('set-value-response', { error: 'The element is read-only.' });
          const raw = data['value'];
          const next = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : { value: raw };
          const v = next['value'];
          if (v !== null && typeof v !== 'string')
            return reply('set-value-response', { error: 'The value must be a string or null.' });
          const searchable = next['searchableValue'];
          change({
            ...current,
            value: v,
            ...(typeof searchable === 'string' || searchable === null ? { searchable_value: searchable } : {}),
          });
          reply('set-value-response', {});
          break;
        }
        case 'set-height-request': {
          const h = data['height'];
          if (typeof h === 'number' && Number.isFinite(h) && h >= 0) setHeight(Math.min(Math.round(h), 4000));
          break;
        }
        case 'get-value-request':
          reply('get-value-response', otherValue(s, element, data['codename']));
          break;
        case 'observe-element-changes': {
          // Only the elements this custom element may read (`allowed_elements`) are watched.
          const allowed = ((element['allowed_elements'] ?? []) as { id: string }[]).map((e) => e.id);
          const codenames = (Array.isArray(data['elements']) ? data['elements'] : []).filter(
            (c): c is string =>
              typeof c === 'string' && s.elements.some((e) => e.codename === c && allowed.includes(e.id)),
          );
          if (!message.requestId) break;
          observers.current.push({ requestId: message.requestId, codenames });
          for (const c of codenames) seen.current.set(`${message.requestId}:${c}`, { value: valueOf(s, c) });
          break;
        }
        case 'select-assets-request':
        case 'select-items-request':
          if (disabled)
            return reply(message.type.replace('request', 'response'), { error: 'The element is read-only.' });
          setDialog({
            kind: message.type === 'select-assets-request' ? 'assets' : 'items',
            ...(message.requestId ? { requestId: message.requestId } : {}),
            multiple: data['allowMultiple'] === true,
            images: data['fileType'] === 'images',
          });
          break;
        case 'get-asset-details-request':
        case 'get-item-details-request': {
          const isAssets = message.type === 'get-asset-details-request';
          const responseType = isAssets ? 'get-asset-details-response' : 'get-item-details-response';
          const ids = idsOf(data[isAssets ? 'assetIds' : 'itemIds']);
          if (!ids) return reply(responseType, { error: 'Provide an array of at most 100 ids.' });
          void (isAssets ? loadAssetDetails(s.projectId, ids) : loadItemDetails(s.projectId, ids)).then((found) =>
            reply(responseType, isAssets ? { assets: found } : { items: found }),
          );
          break;
        }
        case 'observe-item-changes':
          if (message.requestId) itemObservers.current.push(message.requestId);
          break;
        default:
          break;
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [element, origin]);

  useEffect(() => {
    post({ type: 'on-disabled-changed', data: { disabled: isReadOnly } });
  }, [isReadOnly]);

  // Tell observers which of their elements changed since the last render.
  useEffect(() => {
    for (const o of observers.current) {
      const changed = o.codenames.filter((c) => {
        const key = `${o.requestId}:${c}`;
        const value = valueOf(scope, c);
        const before = seen.current.get(key);
        seen.current.set(key, { value });
        return before !== undefined && before.value !== value;
      });
      if (changed.length > 0)
        post({ type: 'on-elements-changed', data: { elements: changed }, requestId: o.requestId });
    }
  });

  // The item's own changes (its name here) reach observeItemChanges.
  const itemName = scope.item?.name;
  useEffect(() => {
    const item = scope.item;
    if (!item) return;
    for (const requestId of itemObservers.current)
      post({
        type: 'on-item-changed',
        data: { item: { id: item.id, codename: item.codename, name: item.name } },
        requestId,
      });
  }, [itemName]);

  /** The answer to an open selection dialog: the chosen references, or null when it was closed. */
  const answer = (chosen: { id: string }[] | null) => {
    if (!dialog) return;
    const type = dialog.kind === 'assets' ? 'select-assets-response' : 'select-items-response';
    post({
      type,
      data: dialog.kind === 'assets' ? { assets: chosen } : { items: chosen },
      requestId: dialog.requestId,
    });
    setDialog(null);
  };

  if (!sourceUrl) return <p className="element-error">This custom element has no source URL.</p>;
  return (
    <>
      {dialog?.kind === 'assets' ? (
        <AssetPicker
          projectId={scope.projectId}
          isOpen
          isMultiple={dialog.multiple}
          isImagesOnly={dialog.images}
          onPick={(assets) => answer(assets.map((a) => ({ id: a.id })))}
          onClose={() => answer(null)}
        />
      ) : null}
      {dialog?.kind === 'items' ? (
        <ItemPicker
          allowedTypeIds={[]}
          excludeIds={[]}
          onPick={(ids) => answer(ids.map((id) => ({ id })))}
          onClose={() => answer(null)}
        />
      ) : null}
      <iframe
        ref={frame}
        id={inputId}
        className="element-custom"
        src={sourceUrl}
        title={element.name ?? element.codename}
        sandbox="allow-scripts allow-same-origin allow-forms"
        style={{ height }}
        aria-describedby={describedBy}
      />
    </>
  );
}
