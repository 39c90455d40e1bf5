import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import type { ContentTypeBody } from '../content-types/model.ts';
import {
  at,
  describeReference,
  isRecord,
  Problems,
  readReference,
  recordKeyOf,
  type ModelInput,
} from '../shared/index.ts';
import { readSetting, writeSetting } from './setting-store.ts';

/*
 * Web Spotlight status and live preview status (reference §2.13). Web Spotlight is a flag with a
 * root type: activation names a content type with at least one subpages element, or null for
 * the default root type; deactivation keeps the root type, as Kontent.ai answers it. Lectern
 * stores both; it has no editor UI for them to change.
 */

export interface WebSpotlightStatus {
  enabled: boolean;
  root_type: { id: string } | null;
}

export interface LivePreviewStatus {
  status: 'enabled' | 'disabled';
}

const spotlightOff: WebSpotlightStatus = { enabled: false, root_type: null };
const livePreviewOff: LivePreviewStatus = { status: 'disabled' };

export function getWebSpotlight(deps: CoreDeps, input: ModelInput): Promise<WebSpotlightStatus> {
  return readSetting(deps, input, { name: 'web_spotlight', fallback: spotlightOff });
}

/** PUT `/web-spotlight/activate` with `{root_type: reference | null}`. */
export function activateWebSpotlight(
  deps: CoreDeps,
  input: ModelInput & { body: unknown },
): Promise<WebSpotlightStatus> {
  return writeSetting(deps, input, {
    name: 'web_spotlight',
    fallback: spotlightOff,
    build: async (tx) => {
      const problems = new Problems();
      const body = isRecord(input.body) ? input.body : {};
      if (!isRecord(input.body))
        problems.add(undefined, 'The body must be a JSON object {"root_type": reference or null}.');
      const raw = body['root_type'];
      if (raw === undefined)
        problems.add('root_type', "The 'root_type' property is missing. Send null for the default root type.");
      problems.throwIfAny();
      if (raw === null) return { enabled: true, root_type: null };
      const ref = readReference(raw, 'root_type', problems);
      problems.throwIfAny();
      if (!ref) throw new Error('unreachable: a reference problem was recorded');
      const type = await tx.model.find<ContentTypeBody>(input.projectId, 'content_type', recordKeyOf(ref));
      if (!type)
        throw new LecternError('WEB_SPOTLIGHT_ROOT_TYPE_INVALID', {
          message: `The content type with ${describeReference(ref)} was not found.`,
          problems: [{ path: at('root_type', Object.keys(ref)[0] ?? 'id'), message: 'not found' }],
        });
      if (!type.body.elements.some((e) => e.type === 'subpages'))
        throw new LecternError('WEB_SPOTLIGHT_ROOT_TYPE_INVALID', {
          message: `The content type '${type.codename}' has no subpages element, so it cannot be the Web Spotlight root type.`,
        });
      return { enabled: true, root_type: { id: type.id } };
    },
  });
}

/** PUT `/web-spotlight/deactivate`: disabled, the root type kept. */
export function deactivateWebSpotlight(deps: CoreDeps, input: ModelInput): Promise<WebSpotlightStatus> {
  return writeSetting(deps, input, {
    name: 'web_spotlight',
    fallback: spotlightOff,
    build: async (_tx, current) => ({ enabled: false, root_type: current.root_type }),
  });
}

export function getLivePreview(deps: CoreDeps, input: ModelInput): Promise<LivePreviewStatus> {
  return readSetting(deps, input, { name: 'live_preview', fallback: livePreviewOff });
}

/** PUT `/live-preview-configuration` with `{status: "enabled" | "disabled"}`. */
export function changeLivePreview(deps: CoreDeps, input: ModelInput & { body: unknown }): Promise<LivePreviewStatus> {
  return writeSetting(deps, input, {
    name: 'live_preview',
    fallback: livePreviewOff,
    build: async () => {
      const status = isRecord(input.body) ? input.body['status'] : undefined;
      if (status !== 'enabled' && status !== 'disabled') {
        const problems = new Problems();
        problems.add('status', 'must be "enabled" or "disabled"');
        problems.throwIfAny();
      }
      return { status: status as LivePreviewStatus['status'] };
    },
  });
}
