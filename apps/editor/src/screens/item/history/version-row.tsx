import type { UserJson } from '../../../workflow/workflow-api.ts';
import { userLabel } from '../../../workflow/workflow-api.ts';
import { stepName, type WorkflowJson } from '../../../workflow/workflow-rules.ts';
import type { VersionJson } from './history-api.ts';

const interfaces: Record<VersionJson['interface'], string> = {
  editor: 'in the editor',
  management_api: 'through the Management API',
  operator: 'by the operator',
  background_task: 'by scheduled publishing',
  system: 'before history was kept',
};

/** Who saved the version, as a person reads it. */
export function savedBy(v: VersionJson, users: ReadonlyMap<string, UserJson>): string {
  const who = v.saved_by ? userLabel(users.get(v.saved_by.id), v.saved_by.id) : null;
  return who ? `${who} ${interfaces[v.interface]}` : interfaces[v.interface].replace(/^(in|by|through) /, '');
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }) + ' UTC';
}

/** One entry of the list: number, time, person, step, published badge; Open and a compare choice. */
export function VersionRow({
  v,
  isCurrent,
  users,
  workflows,
  isSelected,
  onSelect,
  onOpen,
}: {
  v: VersionJson;
  isCurrent: boolean;
  users: ReadonlyMap<string, UserJson>;
  workflows: readonly WorkflowJson[];
  isSelected: boolean;
  onSelect: (isSelected: boolean) => void;
  onOpen: () => void;
}) {
  const workflow = workflows.find((w) => w.id === v.workflow.workflow_identifier.id);
  const label = `Version ${v.number}`;
  return (
    <li className="history-row" data-version={v.number}>
      <input
        type="checkbox"
        id={`compare-${v.id}`}
        checked={isSelected}
        onChange={(e) => onSelect(e.target.checked)}
        aria-label={`Compare ${label}`}
      />
      <div className="history-row-text">
        <p className="history-row-title">
          <strong>{label}</strong> <time dateTime={v.saved_at}>{formatTime(v.saved_at)}</time>
          {isCurrent && <span className="history-badge">Current</span>}
          {v.is_published && <span className="history-badge history-badge-published">Published</span>}
          {v.restored_from && <span className="history-badge">Restored</span>}
        </p>
        <p className="history-row-meta">
          {savedBy(v, users)} · <span className="step-badge">{stepName(workflow, v.workflow.step_identifier.id)}</span>
          {' · '}
          {v.changed_elements.length === 1 ? '1 element changed' : `${v.changed_elements.length} elements changed`}
        </p>
      </div>
      <button type="button" className="button" onClick={onOpen} aria-label={`Open ${label}`}>
        Open
      </button>
    </li>
  );
}
