import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { TypeElement } from '../../../elements/model.ts';
import { errorText } from '../../../ui/error-text.ts';
import { ModalDialog } from '../../../ui/modal-dialog.tsx';
import { useUsers, useWorkflows } from '../../../workflow/workflow-api.ts';
import '../../../styles/history.css';
import { restoreVersion, useVersion, useVersions, type HistoryTarget, type VersionJson } from './history-api.ts';
import { VersionCompare } from './version-compare.tsx';
import { formatTime, VersionRow } from './version-row.tsx';
import { VersionView } from './version-view.tsx';

export interface HistoryPanelProps extends HistoryTarget {
  /** The type's elements (snippets expanded), for names and readable values. */
  readonly elements: readonly TypeElement[];
  /** False for a person who may only read: versions open and compare, nothing is restored. */
  readonly canRestore: boolean;
  /** After a restore: the form loads the restored values. */
  readonly onRestored: () => void;
}

/**
 * "Version history" on the item screen: every saved version (person, time, step, Published),
 * one opened read-only, two compared element by element, and "Restore this version" (after a
 * confirmation) as a new version. Shown on demand, so the list is read only when asked for.
 */
export function HistoryPanel({ elements, canRestore, onRestored, ...target }: HistoryPanelProps) {
  const queryClient = useQueryClient();
  const listId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const versions = useVersions(target, isOpen);
  const workflows = useWorkflows(target.projectId);
  const users = useUsers(target.projectId);
  const [selected, setSelected] = useState<readonly string[]>([]);
  const [opened, setOpened] = useState<string | null>(null);
  const [isComparing, setIsComparing] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const openedVersion = useVersion(target, opened);
  const all: VersionJson[] = versions.data?.pages.flatMap((p) => p.versions) ?? [];
  const numberOf = (id: string) => all.find((v) => v.id === id)?.number ?? 0;
  const [olderId, newerId] = [...selected].sort((a, b) => numberOf(a) - numberOf(b));
  const older = useVersion(target, isComparing && olderId ? olderId : null);
  const newer = useVersion(target, isComparing && newerId ? newerId : null);

  const userById = new Map((users.data ?? []).map((u) => [u.id, u]));
  const current = all[0];
  const close = () => {
    setOpened(null);
    setIsConfirming(false);
    setError(null);
  };
  const restore = async (v: VersionJson) => {
    setIsBusy(true);
    setError(null);
    try {
      const restored = await restoreVersion(queryClient, target, v.id);
      close();
      setMessage(`Version ${v.number} was restored as version ${restored.version.number}, a new draft.`);
      onRestored();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setIsBusy(false);
    }
  };
  const openedMeta = all.find((v) => v.id === opened);

  return (
    <section className="history-panel" aria-labelledby={`${listId}-heading`}>
      <div className="history-head">
        <h2 id={`${listId}-heading`}>Version history</h2>
        <button
          type="button"
          className="button"
          aria-expanded={isOpen}
          aria-controls={listId}
          onClick={() => setIsOpen((o) => !o)}
        >
          {isOpen ? 'Hide version history' : 'Show version history'}
        </button>
      </div>
      {message && (
        <p role="status" className="history-message">
          {message}
        </p>
      )}
      <div id={listId} hidden={!isOpen}>
        {versions.isError && (
          <p role="alert" className="error">
            {errorText(versions.error)}
          </p>
        )}
        {isOpen && versions.isPending && <p role="status">Loading versions…</p>}
        {all.length > 0 && (
          <>
            <p className="history-hint">Choose two versions to compare them.</p>
            <button
              type="button"
              className="button"
              disabled={selected.length !== 2}
              onClick={() => setIsComparing(true)}
            >
              Compare selected versions
            </button>
            <ol className="history-list" aria-label="Versions, newest first">
              {all.map((v) => (
                <VersionRow
                  key={v.id}
                  v={v}
                  isCurrent={v === current}
                  users={userById}
                  workflows={workflows.data ?? []}
                  isSelected={selected.includes(v.id)}
                  onSelect={(on) =>
                    setSelected((s) =>
                      on ? [...s.filter((id) => id !== v.id), v.id].slice(-2) : s.filter((id) => id !== v.id),
                    )
                  }
                  onOpen={() => setOpened(v.id)}
                />
              ))}
            </ol>
            {versions.hasNextPage && (
              <button
                type="button"
                className="button"
                disabled={versions.isFetchingNextPage}
                onClick={() => void versions.fetchNextPage()}
              >
                Show older versions
              </button>
            )}
          </>
        )}
      </div>
      {opened && openedMeta && (
        <ModalDialog
          isOpen
          onClose={close}
          title={`Version ${openedMeta.number} · ${formatTime(openedMeta.saved_at)}`}
          className="history-dialog"
        >
          {openedVersion.data ? (
            <VersionView version={openedVersion.data} elements={elements} />
          ) : (
            <p role="status">Loading…</p>
          )}
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          {canRestore && openedMeta !== current && !isConfirming && (
            <div className="modal-actions">
              <button type="button" className="button button-primary" onClick={() => setIsConfirming(true)}>
                Restore this version
              </button>
            </div>
          )}
          {isConfirming && (
            <div className="history-confirm" role="group" aria-label="Confirm the restore">
              <p>
                Restore version {openedMeta.number}? Its content becomes a new draft version (a published item gets a
                new version first); every version stays in the history. Unsaved changes in the form are lost.
              </p>
              <div className="modal-actions">
                <button
                  type="button"
                  className="button button-primary"
                  data-autofocus
                  disabled={isBusy}
                  onClick={() => void restore(openedMeta)}
                >
                  Restore version {openedMeta.number}
                </button>
                <button type="button" className="button" onClick={() => setIsConfirming(false)}>
                  Cancel
                </button>
              </div>
            </div>
          )}
        </ModalDialog>
      )}
      {isComparing && (
        <ModalDialog isOpen onClose={() => setIsComparing(false)} title="Compare versions" className="history-dialog">
          {older.data && newer.data ? (
            <VersionCompare older={older.data} newer={newer.data} elements={elements} />
          ) : older.isError || newer.isError ? (
            <p role="alert" className="error">
              {errorText(older.error ?? newer.error)}
            </p>
          ) : (
            <p role="status">Loading…</p>
          )}
        </ModalDialog>
      )}
    </section>
  );
}
