import { LecternError } from '@lectern/errors';
import type { ModelRecord, RecordKey } from '../domain/model-record.ts';
import type { CoreDeps } from '../deps.ts';
import type { UnitOfWork } from '../ports/store.ts';
import { languageActions, webhookActionsField } from '../webhooks/change-actions.ts';
import { zeroId } from './system-ids.ts';
import {
  assertModelAccess,
  at,
  characterCount,
  describeReference,
  idFromExternalId,
  isRecord,
  commitModel,
  Problems,
  readReference,
  recordKeyOf,
  type ModelInput,
  writeModel,
  readOperations,
} from './shared/index.ts';

/** Stored body of a language (SPEC 4.2, reference §2.7). */
export interface LanguageBody {
  name: string;
  is_active: boolean;
  fallback_language: { id: string };
}

export type LanguageRecord = ModelRecord<LanguageBody>;

/** The Management API form of a language. */
export function languageJson(r: LanguageRecord) {
  return {
    id: r.id,
    name: r.body.name,
    codename: r.codename,
    ...(r.externalId === null ? {} : { external_id: r.externalId }),
    is_active: r.body.is_active,
    is_default: r.id === zeroId,
    fallback_language: { id: r.body.fallback_language.id },
  };
}

const nameMax = 200;
const languageCodename = /^[A-Za-z0-9_-]{1,60}$/;

export async function listLanguages(deps: CoreDeps, input: ModelInput): Promise<LanguageRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => await tx.model.list<LanguageBody>(input.projectId, 'language'));
}

export async function getLanguage(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<LanguageRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => requireLanguage(tx, input.projectId, input.key));
}

async function requireLanguage(
  tx: UnitOfWork,
  projectId: string,
  key: RecordKey,
  isForUpdate = false,
): Promise<LanguageRecord> {
  const found = await tx.model.find<LanguageBody>(projectId, 'language', key, { isForUpdate });
  if (!found)
    throw new LecternError('LANGUAGE_NOT_FOUND', {
      message: `The language with ${describeReference(key)} was not found.`,
    });
  return found;
}

function checkName(value: unknown, path: string, problems: Problems): value is string {
  if (typeof value !== 'string' || value.trim().length === 0 || characterCount(value) > nameMax) {
    problems.add(path, `Provide a nonempty name which fits within ${nameMax} characters.`);
    return false;
  }
  return true;
}

function checkLanguageCodename(value: unknown, path: string, problems: Problems): value is string {
  if (typeof value !== 'string' || !languageCodename.test(value)) {
    problems.add(path, 'must be 1 to 60 letters, digits, hyphens or underscores (for example en-US)');
    return false;
  }
  return true;
}

/**
 * Checks cross-object rules of a language about to be saved: codename unique, fallback an active
 * language, no fallback cycle, the default language active. `all` is every language after the change.
 */
function checkLanguageSet(
  all: readonly LanguageRecord[],
  changed: LanguageRecord,
  problems: Problems,
  pathOf: (p: string) => string,
): void {
  if (all.some((l) => l.id !== changed.id && l.codename === changed.codename)) {
    problems.add(pathOf('codename'), `The codename '${changed.codename}' is already used by another language.`);
  }
  if (changed.id === zeroId && !changed.body.is_active)
    problems.add(pathOf('is_active'), 'The default language cannot be deactivated.');
  const byId = new Map(all.map((l) => [l.id, l]));
  const fallback = byId.get(changed.body.fallback_language.id);
  if (changed.id !== zeroId && (!fallback || !fallback.body.is_active)) {
    problems.add(pathOf('fallback_language'), 'Fallback language not found or inactive.');
    return;
  }
  const seen = new Set<string>();
  for (let l: LanguageRecord | undefined = changed; l && l.id !== zeroId; l = byId.get(l.body.fallback_language.id)) {
    if (seen.has(l.id)) {
      problems.add(pathOf('fallback_language'), 'The fallback languages would form a cycle.');
      return;
    }
    seen.add(l.id);
  }
}

async function resolveLanguageRef(
  tx: UnitOfWork,
  projectId: string,
  value: unknown,
  path: string,
  problems: Problems,
): Promise<string | null> {
  const ref = readReference(value, path, problems);
  if (!ref) return null;
  const found = await tx.model.find(projectId, 'language', recordKeyOf(ref));
  if (!found) {
    problems.add(path, `The language with ${describeReference(ref)} was not found.`);
    return null;
  }
  return found.id;
}

export async function addLanguage(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<LanguageRecord> {
  const body = isRecord(input.body) ? input.body : {};
  return writeModel(deps, input, 'language', async (tx) => {
    const problems = new Problems();
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    checkName(body['name'], 'name', problems);
    checkLanguageCodename(body['codename'], 'codename', problems);
    const externalId = body['external_id'];
    if (externalId !== undefined && externalId !== null && (typeof externalId !== 'string' || externalId === '')) {
      problems.add('external_id', 'must be a non-empty string');
    }
    if (body['is_active'] !== undefined && typeof body['is_active'] !== 'boolean')
      problems.add('is_active', 'must be true or false');
    const fallbackId =
      body['fallback_language'] === undefined || body['fallback_language'] === null
        ? zeroId
        : await resolveLanguageRef(tx, input.projectId, body['fallback_language'], 'fallback_language', problems);
    problems.throwIfAny();
    const ext = typeof externalId === 'string' ? externalId : null;
    if (ext !== null && (await tx.model.find(input.projectId, 'language', { externalId: ext }))) {
      throw new LecternError('INVALID_REQUEST_BODY', {
        problems: [{ path: 'external_id', message: `The external id '${ext}' is already used by another language.` }],
      });
    }
    const record: LanguageRecord = {
      projectId: input.projectId,
      kind: 'language',
      id:
        ext === null
          ? deps.ids.uuid()
          : idFromExternalId({ projectId: input.projectId, kind: 'language', externalId: ext }),
      codename: body['codename'] as string,
      externalId: ext,
      body: {
        name: (body['name'] as string).trim(),
        is_active: (body['is_active'] as boolean | undefined) ?? true,
        fallback_language: { id: fallbackId as string },
      },
      lastModified: deps.clock.now(),
    };
    const all = [...(await tx.model.list<LanguageBody>(input.projectId, 'language')), record];
    checkLanguageSet(all, record, problems, (p) => p);
    problems.throwIfAny();
    await commitModel(tx, 'create', record);
    return record;
  });
}

/**
 * PATCH a language: `[{op: "replace", property_name: name|codename|is_active|fallback_language, value}]`
 * (SPEC 4.2 rule 3). All operations apply or none.
 */
export async function modifyLanguage(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
): Promise<LanguageRecord> {
  return writeModel(deps, input, 'language', async (tx) => {
    const current = await requireLanguage(tx, input.projectId, input.key, true);
    const operations = readOperations(input.operations);
    const problems = new Problems();
    let next: LanguageRecord = { ...current, body: { ...current.body } };
    for (const [i, op] of operations.entries()) {
      const path = `[${i}]`;
      if (!isRecord(op) || op['op'] !== 'replace') {
        problems.add(
          at(path, 'op'),
          `Invalid operation with index '${i}': languages support only the "replace" operation (lower case).`,
        );
        continue;
      }
      const value = op['value'];
      switch (op['property_name']) {
        case 'name':
          if (checkName(value, at(path, 'value'), problems))
            next = { ...next, body: { ...next.body, name: value.trim() } };
          break;
        case 'codename':
          if (checkLanguageCodename(value, at(path, 'value'), problems)) next = { ...next, codename: value };
          break;
        case 'is_active':
          if (typeof value !== 'boolean') problems.add(at(path, 'value'), 'must be true or false');
          else next = { ...next, body: { ...next.body, is_active: value } };
          break;
        case 'fallback_language': {
          const id = await resolveLanguageRef(tx, input.projectId, value, at(path, 'value'), problems);
          if (id !== null) next = { ...next, body: { ...next.body, fallback_language: { id } } };
          break;
        }
        default:
          // Open input: `property_name` as the request spells it.
          problems.add(
            at(path, 'property_name'),
            `Invalid operation with index '${i}': property_name must be name, codename, is_active or fallback_language.`,
          );
      }
    }
    problems.throwIfAny();
    const all = (await tx.model.list<LanguageBody>(input.projectId, 'language')).map((l) =>
      l.id === next.id ? next : l,
    );
    checkLanguageSet(all, next, problems, (p) => p);
    problems.throwIfAny();
    next = { ...next, lastModified: deps.clock.now() };
    // The event names the webhook actions the change stands for (activated: created, …).
    await commitModel(tx, 'update', next, next.lastModified, {
      [webhookActionsField]: languageActions(current, next),
    });
    return next;
  });
}
