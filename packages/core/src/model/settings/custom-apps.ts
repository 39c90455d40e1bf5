import type { ModelRecord, RecordKey } from '../../domain/model-record.ts';
import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { readName, requireModel } from '../collections/model-fields.ts';
import {
  deleteModel,
  assertModelAccess,
  at,
  checkCodename,
  commitModel,
  createModel,
  isRecord,
  Problems,
  readReference,
  writeModel,
  type ModelInput,
  readOperations,
} from '../shared/index.ts';
import { roleId, isRoleId } from './roles.ts';

/*
 * Custom apps (reference §2.13, PATCH dialect §6.6): one model document each, by id or codename.
 * `allowed_roles` name roles of the environment by id or codename (`[]`: every role).
 */

export type DisplayMode = 'fullScreen' | 'dialog';

export interface CustomAppBody {
  name: string;
  source_url: string;
  config: string | null;
  allowed_roles: { id: string }[];
  display_mode: DisplayMode;
}

export type CustomAppRecord = ModelRecord<CustomAppBody>;

const nameMax = 200;
const urlMax = 2048;
const configMax = 100_000;

export function customAppJson(r: CustomAppRecord) {
  return {
    id: r.id,
    name: r.body.name,
    codename: r.codename,
    source_url: r.body.source_url,
    config: r.body.config,
    allowed_roles: r.body.allowed_roles.map((x) => ({ id: x.id })),
    display_mode: r.body.display_mode,
  };
}

function readSourceUrl(value: unknown, path: string, problems: Problems): string | null {
  if (typeof value === 'string' && value.length <= urlMax && URL.canParse(value)) {
    const protocol = new URL(value).protocol;
    if (protocol === 'https:' || protocol === 'http:') return value;
  }
  problems.add(path, 'Provide an absolute http or https URL.');
  return null;
}

function readConfig(value: unknown, path: string, problems: Problems): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'string' && value.length <= configMax) return value;
  problems.add(path, `must be a string of at most ${configMax} characters, or null`);
  return undefined;
}

function readDisplayMode(value: unknown, path: string, problems: Problems): DisplayMode | undefined {
  if (value === 'fullScreen' || value === 'dialog') return value;
  problems.add(path, 'must be "fullScreen" or "dialog"');
  return undefined;
}

/** Role references by id or codename, each a role of the environment; duplicates collapse. */
function readRoles(projectId: string, value: unknown, path: string, problems: Problems): { id: string }[] {
  if (!Array.isArray(value)) {
    problems.add(path, 'must be an array of role references');
    return [];
  }
  const out: { id: string }[] = [];
  for (const [i, raw] of value.entries()) {
    const ref = readReference(raw, at(path, i), problems);
    if (!ref) continue;
    const id = 'id' in ref ? ref.id : 'codename' in ref ? roleId(projectId, ref.codename) : null;
    if (id === null || !isRoleId(projectId, id)) problems.add(at(path, i), 'The role was not found.');
    else if (!out.some((r) => r.id === id)) out.push({ id });
  }
  return out;
}

function requireApp(tx: UnitOfWork, projectId: string, key: RecordKey, isForUpdate = false) {
  return requireModel<CustomAppBody>(tx, {
    projectId,
    kind: 'custom_app',
    key,
    notFound: 'CUSTOM_APP_NOT_FOUND',
    noun: 'custom app',
    isForUpdate,
  });
}

export async function listCustomApps(deps: CoreDeps, input: ModelInput): Promise<CustomAppRecord[]> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => tx.model.list<CustomAppBody>(input.projectId, 'custom_app'));
}

export async function getCustomApp(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<CustomAppRecord> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction((tx) => requireApp(tx, input.projectId, input.key));
}

function codenameTaken(all: readonly CustomAppRecord[], codename: string, selfId: string | null, problems: Problems) {
  if (all.some((a) => a.id !== selfId && a.codename === codename))
    problems.add('codename', `The codename '${codename}' is already used by another custom app.`);
}

export async function addCustomApp(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<CustomAppRecord> {
  return writeModel(deps, input, 'custom_app', async (tx) => {
    const problems = new Problems();
    const body = isRecord(input.body) ? input.body : {};
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    const name = readName(body['name'], 'name', problems, nameMax);
    const codename = checkCodename(body['codename'], 'codename', problems) ? body['codename'] : null;
    const sourceUrl = readSourceUrl(body['source_url'], 'source_url', problems);
    const config = body['config'] === undefined ? null : readConfig(body['config'], 'config', problems);
    const roles =
      body['allowed_roles'] === undefined || body['allowed_roles'] === null
        ? []
        : readRoles(input.projectId, body['allowed_roles'], 'allowed_roles', problems);
    const mode =
      body['display_mode'] === undefined || body['display_mode'] === null
        ? 'fullScreen'
        : readDisplayMode(body['display_mode'], 'display_mode', problems);
    const all = await tx.model.list<CustomAppBody>(input.projectId, 'custom_app');
    if (codename !== null) codenameTaken(all, codename, null, problems);
    problems.throwIfAny();
    return createModel(tx, {
      projectId: input.projectId,
      kind: 'custom_app',
      id: deps.ids.uuid(),
      name: name as string,
      codename: codename as string,
      externalId: null,
      body: {
        name: name as string,
        source_url: sourceUrl as string,
        config: config ?? null,
        allowed_roles: roles,
        display_mode: mode as DisplayMode,
      },
      siblings: all,
      now: deps.clock.now(),
    });
  });
}

const properties = ['name', 'codename', 'source_url', 'config', 'allowed_roles', 'display_mode'];

/**
 * PATCH (§6.6): `replace` of a property, `addInto` / `remove` of `allowed_roles` entries; the
 * operations apply in order, all or none.
 */
export async function modifyCustomApp(
  deps: CoreDeps,
  input: ModelInput & { key: RecordKey; operations: unknown },
): Promise<CustomAppRecord> {
  return writeModel(deps, input, 'custom_app', async (tx) => {
    const current = await requireApp(tx, input.projectId, input.key, true);
    const operations = readOperations(input.operations);
    const problems = new Problems();
    let codename = current.codename;
    const body: CustomAppBody = { ...current.body, allowed_roles: [...current.body.allowed_roles] };
    for (const [i, op] of operations.entries()) {
      const path = `[${i}]`;
      const value = isRecord(op) ? op['value'] : undefined;
      const valuePath = at(path, 'value');
      const name = isRecord(op) ? op['op'] : undefined;
      const property = isRecord(op) ? op['property_name'] : undefined;
      if (typeof property !== 'string' || !properties.includes(property)) {
        problems.add(
          at(path, 'property_name'),
          `Invalid operation with index '${i}': property_name must be one of ${properties.join(', ')}.`,
        );
        continue;
      }
      if ((name === 'addInto' || name === 'remove') && property === 'allowed_roles') {
        const roles = readRoles(input.projectId, value, valuePath, problems);
        body.allowed_roles =
          name === 'addInto'
            ? [...body.allowed_roles, ...roles.filter((r) => !body.allowed_roles.some((x) => x.id === r.id))]
            : body.allowed_roles.filter((x) => !roles.some((r) => r.id === x.id));
        continue;
      }
      if (name !== 'replace') {
        problems.add(
          at(path, 'op'),
          `Invalid operation with index '${i}': op must be replace, or addInto / remove of allowed_roles.`,
        );
        continue;
      }
      if (property === 'name') body.name = readName(value, valuePath, problems, nameMax) ?? body.name;
      else if (property === 'codename') {
        if (checkCodename(value, valuePath, problems)) codename = value;
      } else if (property === 'source_url')
        body.source_url = readSourceUrl(value, valuePath, problems) ?? body.source_url;
      else if (property === 'config') {
        const config = readConfig(value, valuePath, problems);
        if (config !== undefined) body.config = config;
      } else if (property === 'allowed_roles')
        body.allowed_roles = readRoles(input.projectId, value, valuePath, problems);
      else body.display_mode = readDisplayMode(value, valuePath, problems) ?? body.display_mode;
    }
    codenameTaken(await tx.model.list<CustomAppBody>(input.projectId, 'custom_app'), codename, current.id, problems);
    problems.throwIfAny();
    const next: CustomAppRecord = { ...current, codename, body, lastModified: deps.clock.now() };
    await commitModel(tx, 'update', next);
    return next;
  });
}

export async function deleteCustomApp(deps: CoreDeps, input: ModelInput & { key: RecordKey }): Promise<void> {
  await deleteModel(deps, input, {
    kind: 'custom_app',
    require: (tx) => requireApp(tx, input.projectId, input.key, true),
  });
}
