import type { CoreDeps } from '../../deps.ts';
import type { UnitOfWork } from '../../ports/store.ts';
import { resolveModelReference } from '../collections/model-fields.ts';
import { at, isRecord, Problems, type ModelInput } from '../shared/index.ts';
import { readSetting, writeSetting } from './setting-store.ts';

/*
 * Preview configuration (reference §2.13 "Retrieve / Modify preview configuration"): the web
 * domain of each space and the preview URL patterns of content types, per space or for all
 * spaces (`space: null`). PUT replaces the whole configuration; references are by id or
 * codename (types also by external id) and must name existing objects.
 */

export interface PreviewConfiguration {
  space_domains: { space: { id: string }; domain: string }[];
  preview_url_patterns: {
    content_type: { id: string };
    url_patterns: { space: { id: string } | null; url_pattern: string }[];
  }[];
}

const empty: PreviewConfiguration = { space_domains: [], preview_url_patterns: [] };
const textMax = 2048;

/** The configuration without entries whose space or content type was deleted since it was set. */
async function withoutDeleted(tx: UnitOfWork, projectId: string, c: PreviewConfiguration) {
  const spaceIds = new Set((await tx.model.list(projectId, 'space')).map((s) => s.id));
  const typeIds = new Set((await tx.model.list(projectId, 'content_type')).map((t) => t.id));
  return {
    space_domains: c.space_domains.filter((d) => spaceIds.has(d.space.id)),
    preview_url_patterns: c.preview_url_patterns
      .filter((p) => typeIds.has(p.content_type.id))
      .map((p) => ({
        content_type: p.content_type,
        url_patterns: p.url_patterns.filter((u) => u.space === null || spaceIds.has(u.space.id)),
      })),
  };
}

export function getPreviewConfiguration(deps: CoreDeps, input: ModelInput): Promise<PreviewConfiguration> {
  return readSetting(deps, input, {
    name: 'preview_configuration',
    fallback: empty,
    view: (tx, body) => withoutDeleted(tx, input.projectId, body),
  });
}

function readText(value: unknown, path: string, problems: Problems, what: string): string | null {
  if (typeof value !== 'string' || value.trim() === '' || value.length > textMax) {
    problems.add(path, `Provide a nonempty ${what} of at most ${textMax} characters.`);
    return null;
  }
  return value.trim();
}

function readArray(value: unknown, path: string, problems: Problems): unknown[] {
  if (Array.isArray(value)) return value;
  problems.add(path, 'must be an array');
  return [];
}

async function readSpaceDomains(tx: UnitOfWork, projectId: string, value: unknown, problems: Problems) {
  const out: PreviewConfiguration['space_domains'] = [];
  for (const [i, raw] of readArray(value, 'space_domains', problems).entries()) {
    const path = at('space_domains', i);
    if (!isRecord(raw)) {
      problems.add(path, 'must be an object {space, domain}');
      continue;
    }
    const space = await resolveModelReference(tx, {
      projectId,
      kind: 'space',
      noun: 'space',
      value: raw['space'],
      path: at(path, 'space'),
      problems,
    });
    const domain = readText(raw['domain'], at(path, 'domain'), problems, 'domain');
    if (space !== null && out.some((d) => d.space.id === space))
      problems.add(at(path, 'space'), 'Each space can have only one domain.');
    else if (space !== null && domain !== null) out.push({ space: { id: space }, domain });
  }
  return out;
}

async function readPatterns(tx: UnitOfWork, projectId: string, value: unknown, path: string, problems: Problems) {
  const out: PreviewConfiguration['preview_url_patterns'][number]['url_patterns'] = [];
  for (const [i, raw] of readArray(value, path, problems).entries()) {
    const p = at(path, i);
    if (!isRecord(raw)) {
      problems.add(p, 'must be an object {space, url_pattern}');
      continue;
    }
    const rawSpace = raw['space'];
    const space =
      rawSpace === null || rawSpace === undefined
        ? null
        : await resolveModelReference(tx, {
            projectId,
            kind: 'space',
            noun: 'space',
            value: rawSpace,
            path: at(p, 'space'),
            problems,
          });
    const pattern = readText(raw['url_pattern'], at(p, 'url_pattern'), problems, 'URL pattern');
    const isBadSpace = rawSpace !== null && rawSpace !== undefined && space === null;
    if (isBadSpace || pattern === null) continue;
    if (out.some((o) => (o.space?.id ?? null) === space))
      problems.add(at(p, 'space'), 'Each space can have only one URL pattern per content type.');
    else out.push({ space: space === null ? null : { id: space }, url_pattern: pattern });
  }
  return out;
}

/** PUT: replaces the configuration with a valid body; nothing changes on any problem. */
export function modifyPreviewConfiguration(
  deps: CoreDeps,
  input: ModelInput & { body: unknown },
): Promise<PreviewConfiguration> {
  return writeSetting(deps, input, {
    name: 'preview_configuration',
    fallback: empty,
    build: async (tx) => {
      const problems = new Problems();
      const body = isRecord(input.body) ? input.body : {};
      if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
      const spaceDomains = await readSpaceDomains(tx, input.projectId, body['space_domains'], problems);
      const patterns: PreviewConfiguration['preview_url_patterns'] = [];
      for (const [i, raw] of readArray(body['preview_url_patterns'], 'preview_url_patterns', problems).entries()) {
        const path = at('preview_url_patterns', i);
        if (!isRecord(raw)) {
          problems.add(path, 'must be an object {content_type, url_patterns}');
          continue;
        }
        const type = await resolveModelReference(tx, {
          projectId: input.projectId,
          kind: 'content_type',
          noun: 'content type',
          value: raw['content_type'],
          path: at(path, 'content_type'),
          problems,
        });
        const urlPatterns = await readPatterns(
          tx,
          input.projectId,
          raw['url_patterns'],
          at(path, 'url_patterns'),
          problems,
        );
        if (type !== null && patterns.some((p) => p.content_type.id === type))
          problems.add(at(path, 'content_type'), 'Each content type can be listed only once.');
        else if (type !== null) patterns.push({ content_type: { id: type }, url_patterns: urlPatterns });
      }
      problems.throwIfAny();
      return { space_domains: spaceDomains, preview_url_patterns: patterns };
    },
  });
}
