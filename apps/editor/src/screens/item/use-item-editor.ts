import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, ApiError, mapi } from '../../api/client.ts';
import { checkAll, completeValues } from '../../elements/elements-form.tsx';
import type { ElementValue, TypeElement, VariantJson } from '../../elements/model.ts';
import { useExpandedType, useItem, type ItemJson } from '../../elements/queries.ts';
import { mapValidationErrors } from '../../elements/validation.ts';
import type { SummaryEntry } from './error-summary.tsx';
import { useSession } from '../../api/session.ts';
import { variantKey } from '../../workflow/workflow-api.ts';
import { useLanguages, useVariants, variantsKey } from './queries.ts';
import { compareVersions, mergeVersions, type ElementChange } from './conflict/merge.ts';
import {
  fetchVariantVersion,
  putVariantVersion,
  useVariantVersion,
  variantVersionKey,
  type VariantVersion,
} from './conflict/variant-version.ts';

/** The version an edit started from: its ETag (sent as `If-Match` on Save) and its values. */
interface EditBase {
  readonly etag: string | null;
  readonly values: ElementValue[];
  readonly lastModified: string | null;
}

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'failed';

/**
 * Kontent.ai's fixed ids of the system steps whose variants cannot be changed (the API refuses
 * an upsert: "published, scheduled or archived"), and what the person is told.
 */
const lockedSteps: Readonly<Record<string, string>> = {
  'c199950d-99f0-4983-b711-6c4c91624b22': 'This item is published. Create a new version to change it.',
  '9d2b0228-4d0d-4c23-8b49-01a698857709': 'This item is scheduled to be published. Cancel scheduling to change it.',
  '7a535a69-ad34-47f8-806a-def1fdf4d391': 'This item is archived. Move it to another step to change it.',
};

/**
 * The item editor's state: what was loaded (item, its variants, the type with snippets expanded,
 * languages, the session's permissions), the person's unsaved edits (`draft`, null when clean),
 * and Save, which writes through `PUT /items/{id}` (name) and `PUT /items/{id}/variants/{lang}`
 * (elements by id), the Management API's own routes.
 */
export function useItemEditor(projectId: string, languageCodename: string, itemId: string) {
  const client = useQueryClient();
  const session = useSession();
  const languages = useLanguages(projectId);
  const item = useItem(projectId, itemId);
  const variants = useVariants(projectId, itemId);
  const type = useExpandedType(projectId, item.data?.type.id);
  const [draft, setDraft] = useState<ElementValue[] | null>(null);
  const [nameDraft, setNameDraft] = useState<string | null>(null);
  const [isStartingEmpty, setStartingEmpty] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const [apiErrors, setApiErrors] = useState<ReadonlyMap<string, string[]>>(new Map());
  const [summary, setSummary] = useState<{ title: string; entries: SummaryEntry[] } | null>(null);
  const [base, setBase] = useState<EditBase | null>(null);
  const [conflict, setConflict] = useState<{ changes: ElementChange[]; theirs: VariantVersion } | null>(null);

  const language = languages.data?.find((l) => l.codename === languageCodename) ?? null;
  // The open language's variant comes with its ETag (one GET), so the form shows that version.
  const version = useVariantVersion(projectId, itemId, language?.id);
  const listed = language ? (variants.data?.find((v) => v.language.id === language.id) ?? null) : null;
  const variant = version.data !== undefined ? (version.data?.variant ?? null) : listed;
  const defs: readonly TypeElement[] = type.data?.elements ?? [];
  const loaded = useMemo(() => completeValues(defs, variant?.elements ?? []), [defs, variant]);
  const current = draft ?? loaded;
  const permissions = session.data?.projects.find((p) => p.id === projectId)?.permissions ?? [];
  const canEdit = permissions.includes('manage_content');
  const stepId = variant?.workflow_step?.id ?? variant?.workflow?.step_identifier?.id;
  const lockedReason = stepId ? (lockedSteps[stepId] ?? null) : null;
  const isDirty = draft !== null || (nameDraft !== null && nameDraft !== item.data?.name);
  const nameOf = (id: string) => {
    const d = defs.find((x) => x.id === id);
    return d ? (d.name ?? d.codename) : null;
  };

  /**
   * Saves the edits; `override` saves merged values over a newer base (after a conflict). Every
   * variant save sends the ETag of the version the edit started from: a save over a newer version
   * is refused (412) and the conflict is shown element by element instead.
   */
  const save = async (override?: { values: ElementValue[]; base: EditBase; isRetry?: boolean }): Promise<boolean> => {
    if (!language || !item.data) return false;
    const values = override?.values ?? current;
    const from = override?.base ?? base;
    const blocking = [...checkAll(defs, values)].flatMap(([id, p]) =>
      p.errors.map((message) => ({ elementId: id, elementName: nameOf(id), message })),
    );
    if (blocking.length > 0) {
      setSummary({ title: 'Fix these before saving', entries: blocking });
      return false;
    }
    setSaving(true);
    setSummary(null);
    try {
      if (nameDraft !== null && nameDraft !== item.data.name) {
        const updated = await api<ItemJson>(mapi(projectId, `/items/${itemId}`), {
          method: 'PUT',
          body: { name: nameDraft },
        });
        client.setQueryData(['mapi', projectId, 'item', itemId], updated);
      }
      if (override || draft !== null || variant === null) {
        const etag = from ? from.etag : variant ? (version.data?.etag ?? null) : null;
        await putVariantVersion(client, { projectId, itemId, languageId: language.id, elements: values, etag });
        // The workflow panel's view of this variant (last change, step) follows the save.
        void client.invalidateQueries({ queryKey: variantKey(projectId, itemId, language.id) });
      }
      setDraft(null);
      setNameDraft(null);
      setStartingEmpty(false);
      setApiErrors(new Map());
      setBase(null);
      setConflict(null);
      return true;
    } catch (e) {
      const theirs =
        e instanceof ApiError && e.status === 412 ? await fetchVariantVersion(projectId, itemId, language.id) : null;
      const theirValues = theirs ? completeValues(defs, theirs.variant.elements) : [];
      const changes = theirs
        ? compareVersions({ defs, base: from?.values ?? loaded, mine: values, theirs: theirValues })
        : [];
      if (theirs && !override?.isRetry && !changes.some((c) => c.side === 'theirs' || c.side === 'both')) {
        // The version moved without touching an element (a workflow move, a schedule): nothing of
        // theirs to lose, so the save goes again over it, once.
        const next: EditBase = { etag: theirs.etag, values: theirValues, lastModified: theirs.variant.last_modified };
        setBase(next);
        return await save({ values, base: next, isRetry: true });
      }
      if (theirs) {
        setDraft(values);
        setConflict({ theirs, changes });
      } else if (e instanceof ApiError && e.body.validation_errors) {
        const mapped = mapValidationErrors(e.body, values, defs);
        setApiErrors(mapped.byElement);
        setSummary({
          title: e.body.message,
          entries: [
            ...[...mapped.byElement].flatMap(([id, messages]) =>
              messages.map((message) => ({ elementId: id, elementName: nameOf(id), message })),
            ),
            ...mapped.general.map((message) => ({ elementId: null, elementName: null, message })),
          ],
        });
      } else {
        const message = e instanceof Error ? e.message : 'The changes could not be saved.';
        setSummary({
          title: 'The changes could not be saved',
          entries: [{ elementId: null, elementName: null, message }],
        });
      }
      return false;
    } finally {
      setSaving(false);
    }
  };

  /** Creates this language's variant from another language's values (`PUT …/variants/{lang}`). */
  const createFrom = async (source: VariantJson) => {
    if (!language) return;
    const elements = source.elements;
    await putVariantVersion(client, { projectId, itemId, languageId: language.id, elements, etag: null });
  };

  /**
   * After a change of this item elsewhere: a clean form takes the server's values; a dirty one
   * keeps the person's edits and reports (true) when the stored variant is not the one they
   * started from (their own Save's event finds the same version and reports nothing).
   */
  const checkRemoteChange = async (): Promise<boolean> => {
    if (!isDirty) {
      await client.invalidateQueries({ queryKey: variantsKey(projectId, itemId) });
      await client.invalidateQueries({ queryKey: ['mapi', projectId, 'item', itemId] });
      return false;
    }
    if (!language || !variant) return false;
    try {
      const latest = await api<VariantJson>(mapi(projectId, `/items/${itemId}/variants/${language.id}`));
      return latest.last_modified !== (base?.lastModified ?? variant.last_modified);
    } catch {
      return false;
    }
  };

  /** Takes the server's current values (after someone else's change). */
  const reload = async () => {
    setDraft(null);
    setBase(null);
    setConflict(null);
    setNameDraft(null);
    setApiErrors(new Map());
    await client.invalidateQueries({ queryKey: variantsKey(projectId, itemId) });
    await client.invalidateQueries({ queryKey: ['mapi', projectId, 'item', itemId] });
  };

  /** "Keep both where they don't overlap": the merged values saved over the version in the way. */
  const mergeConflict = async (choices: ReadonlyMap<string, 'mine' | 'theirs'>): Promise<boolean> => {
    if (!conflict || !language) return false;
    const merged = mergeVersions(conflict.changes, choices);
    const next: EditBase = {
      etag: conflict.theirs.etag,
      values: completeValues(defs, conflict.theirs.variant.elements),
      lastModified: conflict.theirs.variant.last_modified,
    };
    client.setQueryData(variantVersionKey(projectId, itemId, language.id), conflict.theirs);
    setBase(next);
    setDraft(merged);
    setConflict(null);
    return save({ values: merged, base: next });
  };

  const status: SaveStatus = isSaving ? 'saving' : conflict ? 'failed' : isDirty ? 'dirty' : 'saved';
  return {
    session,
    languages,
    item,
    variants,
    type,
    language,
    variant,
    defs,
    values: current,
    loaded,
    setValues: (next: ElementValue[]) => {
      if (draft === null)
        setBase({ etag: version.data?.etag ?? null, values: loaded, lastModified: variant?.last_modified ?? null });
      setDraft(next);
    },
    isVersionLoading: language !== null && version.isPending,
    conflict,
    mergeConflict,
    name: nameDraft ?? item.data?.name ?? '',
    setName: setNameDraft,
    canEdit,
    lockedReason,
    isDirty,
    isStartingEmpty,
    startEmpty: () => setStartingEmpty(true),
    status,
    apiErrors,
    summary,
    save,
    createFrom,
    reload,
    checkRemoteChange,
  };
}

export type ItemEditor = ReturnType<typeof useItemEditor>;
