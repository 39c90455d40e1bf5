import { Link } from 'wouter';
import { ModalDialog } from '../../../ui/modal-dialog.tsx';
import type { Impact } from './definition-api.ts';

/**
 * The confirmation before a change that breaks existing content is saved: what each change
 * affects (how many items and variants, the first of them as links) from the server's impact
 * check; "Save anyway" saves, "Cancel" keeps editing.
 */
export function ImpactDialog({
  impact,
  itemHref,
  onConfirm,
  onCancel,
}: {
  impact: Impact | null;
  itemHref: (itemId: string) => string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ModalDialog isOpen={impact !== null} onClose={onCancel} title="This change affects existing content">
      {impact && (
        <>
          <p>
            {impact.affected.item_count} content item(s) in {impact.affected.variant_count} language variant(s) hold
            values this change breaks
            {impact.is_complete ? '' : ` (the first ${impact.variants_checked} variants checked)`}.
          </p>
          <ul className="impact-list">
            {impact.changes.map((change) => (
              <li key={`${change.kind}-${change.element.id}`}>
                <p>
                  {change.message} {change.item_count} item(s), {change.variant_count} variant(s):
                </p>
                <ul>
                  {change.items.map((item) => (
                    <li key={item.id}>
                      <Link href={itemHref(item.id)}>{item.name}</Link>
                    </li>
                  ))}
                  {change.item_count > change.items.length && (
                    <li>and {change.item_count - change.items.length} more</li>
                  )}
                </ul>
              </li>
            ))}
          </ul>
          <div className="model-actions">
            <button type="button" className="button" data-autofocus onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="button button-danger" onClick={onConfirm}>
              Save anyway
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
