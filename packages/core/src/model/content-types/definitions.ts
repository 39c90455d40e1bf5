import { LecternError, type ErrorCode } from '@lectern/errors';
import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import {
  deleteModel,
  assertMayChange,
  checkCodename,
  describeReference,
  generateCodename,
  idFromExternalId,
  isRecord,
  commitModel,
  Problems,
  type ModelInput,
  writeModel,
} from '../shared/index.ts';
import { readDefinition } from './elements.ts';
import { isAbsent, readExternalId, readName } from './fields.ts';
import { IdAssigner } from './ids.ts';
import { ModelLookups } from './lookups.ts';
import type { ContentTypeBody, SnippetBody } from './model.ts';
import { applyOperation, type Draft } from './patch.ts';
import { parseOperations } from './patch-parse.ts';

/** What differs between content types and snippets in the shared write paths. */
export interface DefinitionKind {
  readonly kind: 'content_type' | 'snippet';
  readonly label: string;
  readonly notFound: ErrorCode;
}

export type DefinitionBody = ContentTypeBody | SnippetBody;

export async function requireDefinition<B extends DefinitionBody>(
  tx: UnitOfWork,
  options: { projectId: string; spec: DefinitionKind; key: RecordKey; isForUpdate?: boolean },
): Promise<ModelRecord<B>> {
  const found = await tx.model.find<B>(options.projectId, options.spec.kind, options.key, {
    isForUpdate: options.isForUpdate ?? false,
  });
  if (!found)
    throw new LecternError(options.spec.notFound, {
      message: `The ${options.spec.label} with ${describeReference(options.key)} was not found.`,
    });
  return found;
}

function bodyOf(kind: DefinitionKind['kind'], name: string, def: Awaited<ReturnType<typeof readDefinition>>) {
  return kind === 'content_type'
    ? { name, content_groups: def.content_groups, elements: def.elements }
    : { name, elements: def.elements };
}

/** POST /types and /snippets: reads the whole body, lists every problem, then stores it. */
export async function createDefinition(
  deps: CoreDeps,
  input: ModelInput & { body: unknown },
  spec: DefinitionKind,
): Promise<ModelRecord<DefinitionBody>> {
  const { projectId } = input;
  return writeModel(deps, input, spec.kind, async (tx) => {
    const problems = new Problems();
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    const body = isRecord(input.body) ? input.body : {};
    const name = readName(body['name'], 'name', problems);
    const externalId = readExternalId(body['external_id'], 'external_id', problems) ?? null;
    const id = externalId === null ? deps.ids.uuid() : idFromExternalId({ projectId, kind: spec.kind, externalId });
    const existing = await tx.model.list(projectId, spec.kind);
    if (externalId !== null && existing.some((r) => r.externalId === externalId || r.id === id))
      problems.add('external_id', `The external id '${externalId}' is already used by another ${spec.label}.`);
    const taken = new Set(existing.map((r) => r.codename));
    let codename = generateCodename({ name: name ?? 'n', id, isTaken: (c) => taken.has(c) });
    const sent = body['codename'];
    if (!isAbsent(sent) && sent !== '' && checkCodename(sent, 'codename', problems)) {
      codename = sent;
      if (taken.has(sent)) problems.add('codename', `The codename '${sent}' is already used by another ${spec.label}.`);
    }
    const ids = new IdAssigner({ projectId, containerId: id, uuid: () => deps.ids.uuid() });
    const groups = body['content_groups'];
    const elements = body['elements'];
    const lookups = new ModelLookups(tx, { kind: spec.kind, projectId, id, codename, externalId });
    const def = await readDefinition(
      {
        lookups,
        ...(spec.kind === 'content_type'
          ? { groups: Array.isArray(groups) ? groups.map((g) => ids.group(g)) : groups }
          : {}),
        elements: Array.isArray(elements) ? elements.map((e) => ids.element(e)) : elements,
        ids,
        trusted: new Set(),
      },
      problems,
    );
    problems.throwIfAny();
    const record: ModelRecord<DefinitionBody> = {
      projectId,
      kind: spec.kind,
      id,
      codename,
      externalId,
      body: bodyOf(spec.kind, name as string, def),
      lastModified: deps.clock.now(),
    };
    await commitModel(tx, 'create', record);
    return record;
  });
}

const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Reports problems of the changed definition against the operations that caused them: a problem
 * of `elements[3]` belongs to the last operation that touched that element.
 */
function throwForOperations(error: unknown, draft: Draft, touched: Map<string, number>, lastIndex: number): never {
  if (!(error instanceof LecternError)) throw error;
  const problems = new Problems();
  for (const p of error.problems) {
    const match = /^(elements|content_groups)\[(\d+)\]|^(name|codename)/.exec(p.path ?? '');
    let owner: string | undefined = match?.[3];
    if (match?.[1] !== undefined) {
      const list = match[1] === 'elements' ? draft.elements : (draft.content_groups ?? []);
      owner = list[Number(match[2])]?.['id'] as string | undefined;
    }
    const index = (owner === undefined ? undefined : touched.get(owner)) ?? lastIndex;
    problems.add(`[${index}]`, `Invalid operation with index '${index}': ${p.path ? `${p.path}: ` : ''}${p.message}`);
  }
  problems.throwIfAny();
  throw error;
}

/**
 * PATCH /types/{…} and /snippets/{…} (reference §6.1): the operations apply in order to a copy
 * under a row lock; the result is checked as a whole and saved only when valid.
 */
export async function modifyDefinition(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
  spec: DefinitionKind,
): Promise<ModelRecord<DefinitionBody>> {
  assertMayChange(input.actor, input.projectId, 'manage_model');
  const { projectId } = input;
  const parsed = new Problems();
  const ops = parseOperations(input.operations, parsed);
  parsed.throwIfAny();
  return deps.store.transaction(async (tx) => {
    const isRenaming = ops.some((o) => o.segments.length === 1 && o.segments[0] === 'codename');
    if (isRenaming) await tx.model.lockKind(projectId, spec.kind);
    const current = await requireDefinition<DefinitionBody>(tx, { projectId, spec, key: input.key, isForUpdate: true });
    const draft: Draft = {
      name: current.body.name,
      codename: current.codename,
      content_groups:
        'content_groups' in current.body
          ? (structuredClone(current.body.content_groups) as unknown as Record<string, unknown>[])
          : null,
      elements: structuredClone(current.body.elements),
    };
    const ids = new IdAssigner({ projectId, containerId: current.id, uuid: () => deps.ids.uuid() });
    const lookups = new ModelLookups(tx, {
      kind: spec.kind,
      projectId,
      id: current.id,
      codename: current.codename,
      externalId: current.externalId,
    });
    const touched = new Map<string, number>();
    const problems = new Problems();
    for (const op of ops) await applyOperation(op, { draft, ids, lookups, touched }, problems);
    problems.throwIfAny();
    const check = new Problems();
    const name = readName(draft.name, 'name', check);
    let codename = current.codename;
    if (draft.codename !== current.codename && checkCodename(draft.codename, 'codename', check)) {
      codename = draft.codename;
      const others = await tx.model.list(projectId, spec.kind);
      if (others.some((r) => r.id !== current.id && r.codename === codename))
        check.add('codename', `The codename '${codename}' is already used by another ${spec.label}.`);
    }
    lookups.container = { ...lookups.container, codename };
    const trusted = new Set(JSON.stringify(current.body).match(uuidPattern) ?? []);
    const def = await readDefinition(
      {
        lookups,
        ...(draft.content_groups === null ? {} : { groups: draft.content_groups }),
        elements: draft.elements,
        ids,
        trusted,
      },
      check,
    );
    try {
      check.throwIfAny();
    } catch (error) {
      throwForOperations(error, draft, touched, ops.at(-1)?.index ?? 0);
    }
    const next: ModelRecord<DefinitionBody> = {
      ...current,
      codename,
      body: bodyOf(spec.kind, name as string, def),
      lastModified: deps.clock.now(),
    };
    await commitModel(tx, 'update', next);
    return next;
  });
}

/** DELETE /types/{…} and /snippets/{…}; `assertUnused` refuses objects still referred to. */
export async function deleteDefinition(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey },
  spec: DefinitionKind,
  assertUnused: (tx: UnitOfWork, record: ModelRecord<DefinitionBody>) => Promise<void> = async () => {},
): Promise<void> {
  await deleteModel(deps, input, {
    kind: spec.kind,
    require: (tx) =>
      requireDefinition<DefinitionBody>(tx, { projectId: input.projectId, spec, key: input.key, isForUpdate: true }),
    assertUnused,
  });
}
