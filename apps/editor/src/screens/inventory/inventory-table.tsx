import { Link } from 'wouter';
import type { Collection, ContentType, Workflow } from '../../api/project-model.ts';
import type { InventoryRow } from './inventory-data.ts';
import type { SortColumn, SortDirection } from './inventory-url.ts';

export interface InventoryLookups {
  readonly types: ReadonlyMap<string, ContentType>;
  readonly collections: ReadonlyMap<string, Collection>;
  /** Step id → its name, across every workflow (and the system steps: Published, Scheduled, Archived). */
  readonly steps: ReadonlyMap<string, string>;
  readonly userId: string;
  /** The environment's users by id (their e-mail addresses); contributors not among them show by id. */
  readonly userEmails?: ReadonlyMap<string, string>;
}

/** Step names by id, from every workflow. */
export function stepNames(workflows: readonly Workflow[] | undefined): Map<string, string> {
  const names = new Map<string, string>();
  for (const w of workflows ?? []) {
    for (const s of w.steps) names.set(s.id, s.name);
    for (const s of [w.published_step, w.scheduled_step, w.archived_step]) names.set(s.id, s.name);
  }
  return names;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function DateCell({ value }: { value: string | null | undefined }) {
  if (!value) return <span aria-label="none">—</span>;
  return <time dateTime={value}>{dateFormat.format(new Date(value))}</time>;
}

interface SortProps {
  readonly sort: SortColumn;
  readonly direction: SortDirection;
  onSort(column: SortColumn): void;
}

function SortableHeader(props: SortProps & { column: SortColumn; label: string; className?: string }) {
  const isSorted = props.sort === props.column;
  const ariaSort = isSorted ? (props.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className={props.className}>
      <button type="button" className="sort-button" onClick={() => props.onSort(props.column)}>
        {props.label}
        <span aria-hidden="true">{isSorted ? (props.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

function contributorsText(row: InventoryRow, lookups: InventoryLookups): string {
  const list = row.variant?.contributors ?? [];
  if (list.length === 0) return '—';
  return list
    .map((c) => (c.id === lookups.userId ? 'You' : (lookups.userEmails?.get(c.id) ?? `User ${c.id.slice(0, 8)}`)))
    .join(', ');
}

/** The inventory's table: one row per item, its variant in the chosen language (or its fallback). */
export function InventoryTable(
  props: SortProps & {
    rows: readonly InventoryRow[];
    lookups: InventoryLookups;
    itemHref(itemId: string): string;
    isBusy: boolean;
  },
) {
  const { lookups } = props;
  return (
    <div className="inventory-table-wrap">
      <table className="inventory-table" aria-busy={props.isBusy}>
        <caption className="visually-hidden">Content items, sortable by name, last modified and due date</caption>
        <thead>
          <tr>
            <SortableHeader {...props} column="name" label="Name" />
            <th scope="col" className="col-type">
              Content type
            </th>
            <th scope="col" className="col-collection">
              Collection
            </th>
            <th scope="col">Workflow step</th>
            <th scope="col" className="col-contributors">
              Contributors
            </th>
            <SortableHeader {...props} column="last_modified" label="Last modified" />
            <SortableHeader {...props} column="due_date" label="Due date" className="col-due" />
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 && (
            <tr>
              <td colSpan={7}>No content items match.</td>
            </tr>
          )}
          {props.rows.map((row) => {
            const variant = row.variant;
            const stepId = variant?.workflow?.step_identifier.id;
            return (
              <tr key={row.item.id}>
                <th scope="row">
                  <Link href={props.itemHref(row.item.id)}>{row.item.name}</Link>
                  {!variant && (
                    <div className="not-translated">
                      Not translated
                      {row.fallback && ` (shows ${row.fallback.language.name})`}
                    </div>
                  )}
                </th>
                <td className="col-type">{lookups.types.get(row.item.type.id)?.name ?? '—'}</td>
                <td className="col-collection">
                  {lookups.collections.get(row.item.collection?.id ?? '')?.name ?? '—'}
                </td>
                <td>{stepId ? <span className="step">{lookups.steps.get(stepId) ?? 'Unknown step'}</span> : '—'}</td>
                <td className="col-contributors">{contributorsText(row, lookups)}</td>
                <td>
                  <DateCell value={variant?.last_modified ?? row.item.last_modified} />
                </td>
                <td className="col-due">
                  <DateCell value={variant?.due_date?.value} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
