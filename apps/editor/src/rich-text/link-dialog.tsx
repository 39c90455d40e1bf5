import { useId, useState, type FormEvent } from 'react';
import { AssetPicker } from '../ui/asset-picker.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { ItemSearchList } from './pickers.tsx';
import type { LinkAttrs, LinkKind } from './schema.ts';

export interface LinkDialogProps {
  readonly projectId: string;
  readonly isOpen: boolean;
  /** The link being edited, or null for a new one. */
  readonly current: LinkAttrs | null;
  /** True when nothing is selected: the dialog asks for the text to link. */
  readonly needsText: boolean;
  readonly itemTypeIds: readonly string[] | null;
  readonly onClose: () => void;
  readonly onSave: (attrs: LinkAttrs, text: string) => void;
  readonly onRemove: () => void;
}

const kinds: readonly { kind: LinkKind; label: string }[] = [
  { kind: 'web', label: 'Web URL' },
  { kind: 'item', label: 'Content item' },
  { kind: 'asset', label: 'Asset' },
  { kind: 'email', label: 'Email address' },
  { kind: 'phone', label: 'Phone number' },
];

/**
 * A URL as the Management API stores it (SPEC 2.4 rule 4): without a scheme it is taken as a
 * host and gets `http://`, so what the editor writes is what the API gives back.
 */
function withScheme(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
  return url.startsWith('//') ? `http:${url}` : `http://${url}`;
}

/**
 * "Insert link" / "Edit link": a web URL (optionally opened in a new window), a content item of
 * an allowed type, an asset, an e-mail address (with subject) or a phone number.
 */
export function LinkDialog(props: LinkDialogProps) {
  return (
    <ModalDialog
      isOpen={props.isOpen}
      onClose={props.onClose}
      title={props.current === null ? 'Insert link' : 'Edit link'}
    >
      {props.isOpen ? <LinkForm {...props} /> : null}
    </ModalDialog>
  );
}

function LinkForm({ projectId, current, needsText, itemTypeIds, onClose, onSave, onRemove }: LinkDialogProps) {
  const id = useId();
  const [kind, setKind] = useState<LinkKind>(current?.kind ?? 'web');
  const [target, setTarget] = useState<Record<LinkKind, string>>({
    web: '',
    item: '',
    asset: '',
    email: '',
    phone: '',
    ...(current === null ? {} : { [current.kind]: current.target }),
  });
  const [targetName, setTargetName] = useState(current === null ? '' : current.target);
  const [isNewWindow, setIsNewWindow] = useState(current?.isNewWindow ?? false);
  const [subject, setSubject] = useState(current?.subject ?? '');
  const [title, setTitle] = useState(current?.title ?? '');
  const [text, setText] = useState('');
  const [isAssetPickerOpen, setAssetPickerOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const value = target[kind].trim();
  const set = (next: string, name = next) => {
    setTarget((all) => ({ ...all, [kind]: next }));
    setTargetName(name);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      web: 'Enter the URL to link to.',
      item: 'Choose the content item to link to.',
      asset: 'Choose the asset to link to.',
      email: 'Enter the email address.',
      phone: 'Enter the phone number.',
    }[kind];
    if (value === '') return setError(missing);
    if (kind === 'web' && /^\s*(javascript|vbscript|data):/i.test(value))
      return setError('Links with this scheme are not allowed.');
    if (kind === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return setError('Enter a valid email address.');
    if (needsText && text.trim() === '') return setError('Enter the text to display.');
    onSave(
      {
        kind,
        target: kind === 'web' ? withScheme(value) : value,
        subject: kind === 'email' && subject !== '' ? subject : null,
        isNewWindow: (kind === 'web' || kind === 'asset') && isNewWindow,
        title: title === '' ? null : title,
      },
      text,
    );
  };

  return (
    <form className="rt-link-form" onSubmit={submit} noValidate>
      <fieldset>
        <legend>Link to</legend>
        {kinds.map((k) => (
          <label key={k.kind} className="rt-radio">
            <input
              type="radio"
              name={`${id}-kind`}
              value={k.kind}
              checked={kind === k.kind}
              onChange={() => {
                setKind(k.kind);
                setError(null);
              }}
            />
            {k.label}
          </label>
        ))}
      </fieldset>
      {kind === 'web' ? (
        <>
          <label htmlFor={`${id}-url`}>URL</label>
          <input id={`${id}-url`} type="url" value={target.web} onChange={(e) => set(e.target.value)} autoFocus />
          <label className="rt-check">
            <input type="checkbox" checked={isNewWindow} onChange={(e) => setIsNewWindow(e.target.checked)} />
            Open in new window
          </label>
        </>
      ) : null}
      {kind === 'email' ? (
        <>
          <label htmlFor={`${id}-email`}>Email address</label>
          <input id={`${id}-email`} type="email" value={target.email} onChange={(e) => set(e.target.value)} />
          <label htmlFor={`${id}-subject`}>Subject (optional)</label>
          <input id={`${id}-subject`} value={subject} onChange={(e) => setSubject(e.target.value)} />
        </>
      ) : null}
      {kind === 'phone' ? (
        <>
          <label htmlFor={`${id}-phone`}>Phone number</label>
          <input id={`${id}-phone`} type="tel" value={target.phone} onChange={(e) => set(e.target.value)} />
        </>
      ) : null}
      {kind === 'item' ? (
        <>
          <p className="rt-link-chosen" role="status">
            {target.item === '' ? 'No content item chosen.' : `Links to: ${targetName}`}
          </p>
          <ItemSearchList
            projectId={projectId}
            typeIds={itemTypeIds}
            isEnabled
            onPick={(item) => set(item.id, item.name)}
          />
        </>
      ) : null}
      {kind === 'asset' ? (
        <>
          <p className="rt-link-chosen" role="status">
            {target.asset === '' ? 'No asset chosen.' : `Links to: ${targetName}`}
          </p>
          <button type="button" onClick={() => setAssetPickerOpen(true)}>
            Choose asset…
          </button>
          <label className="rt-check">
            <input type="checkbox" checked={isNewWindow} onChange={(e) => setIsNewWindow(e.target.checked)} />
            Open in new window
          </label>
          <AssetPicker
            projectId={projectId}
            isOpen={isAssetPickerOpen}
            onClose={() => setAssetPickerOpen(false)}
            onPick={([asset]) => {
              if (asset !== undefined) set(asset.id, asset.title ?? asset.file_name);
              setAssetPickerOpen(false);
            }}
          />
        </>
      ) : null}
      {needsText ? (
        <>
          <label htmlFor={`${id}-text`}>Text to display</label>
          <input id={`${id}-text`} value={text} onChange={(e) => setText(e.target.value)} />
        </>
      ) : null}
      <label htmlFor={`${id}-title`}>Title (optional)</label>
      <input id={`${id}-title`} value={title} onChange={(e) => setTitle(e.target.value)} />
      {error === null ? null : (
        <p role="alert" className="rt-error">
          {error}
        </p>
      )}
      <div className="rt-dialog-actions">
        <button type="submit" className="button-primary">
          {current === null ? 'Insert' : 'Update'}
        </button>
        {current === null ? null : (
          <button type="button" onClick={onRemove}>
            Remove link
          </button>
        )}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
