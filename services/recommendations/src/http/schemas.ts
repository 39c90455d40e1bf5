import { parseRecsQuery, QuerySyntaxError, recsScenarios, type QueryNode, type RecsScenario } from '@lectern/core';
import { BodyReader } from './body.ts';

/** SPEC 4.5 rule 4. The IP is read for a location lookup only and never kept (rule 5). */
export interface VisitorInput {
  readonly ip: string | null;
  readonly referer: string | null;
  readonly location: Record<string, string> | null;
  readonly custom: Record<string, unknown> | null;
}

function visitorOf(body: BodyReader, options: { isRequired: boolean }): VisitorInput | null {
  const v = body.object('visitor', options);
  if (!v) return null;
  const ip = v.string('ip', { isRequired: false });
  const referer = v.string('referer', { isRequired: false });
  const loc = v.object('location', { isRequired: false });
  let location: Record<string, string> | null = null;
  if (loc) {
    location = {};
    for (const name of ['city', 'country', 'timezone']) {
      const value = loc.string(name, { isRequired: false });
      if (value !== null) location[name] = value;
    }
  }
  return { ip, referer, location, custom: v.record('custom') };
}

function queryOf(settings: BodyReader | null, name: 'filter' | 'booster'): QueryNode | null {
  const text = settings?.string(name, { isRequired: false }) ?? null;
  if (text === null || text.trim() === '') return null;
  try {
    return parseRecsQuery(text, name);
  } catch (error) {
    if (!(error instanceof QuerySyntaxError)) throw error;
    settings!.addProblem(name, error.message);
    return null;
  }
}

export interface RecommendInput {
  readonly visitId: string;
  readonly currentItemCodename: string;
  readonly responseLimit: number;
  readonly requestedTypeCodename: string;
  readonly scenario: RecsScenario;
  readonly filter: QueryNode | null;
  readonly booster: QueryNode | null;
  readonly visitor: VisitorInput | null;
}

export function parseRecommendBody(value: unknown): RecommendInput {
  const body = new BodyReader(value);
  const visitId = body.string('visitId', { isRequired: true, isNoWhiteSpace: true });
  const currentItemCodename = body.string('currentItemCodename', { isRequired: true });
  const responseLimit = body.int32('responseLimit', { isRequired: true, min: 1 });
  const requestedTypeCodename = body.string('requestedTypeCodename', { isRequired: true });
  const settings = body.object('recommendationSettings', { isRequired: false });
  const scenarioText = settings?.string('scenario', { isRequired: false }) ?? null;
  const scenario = (scenarioText?.toLowerCase() ?? 'default') as RecsScenario;
  if (!recsScenarios.includes(scenario))
    settings?.addProblem('scenario', `The scenario must be one of: ${recsScenarios.join(', ')}.`);
  const filter = queryOf(settings, 'filter');
  const booster = queryOf(settings, 'booster');
  const visitor = visitorOf(body, { isRequired: false });
  body.check();
  return {
    visitId: visitId!,
    currentItemCodename: currentItemCodename!,
    responseLimit: responseLimit!,
    requestedTypeCodename: requestedTypeCodename!,
    scenario,
    filter,
    booster,
    visitor,
  };
}

export interface SearchInput {
  readonly visitId: string;
  readonly query: string;
  readonly resultCount: number;
  readonly requestedTypeCodename: string | null;
}

export function parseSearchBody(value: unknown): SearchInput {
  const body = new BodyReader(value);
  const visitId = body.string('visitId', { isRequired: true, isNoWhiteSpace: true });
  const query = body.string('query', { isRequired: true });
  const resultCount = body.int32('resultCount', { isRequired: true, min: 1 });
  const requestedTypeCodename = body.string('requestedTypeCodename', { isRequired: false });
  body.check();
  return { visitId: visitId!, query: query!, resultCount: resultCount!, requestedTypeCodename };
}

export interface TrackVisitInput {
  readonly visitId: string;
  readonly currentItemCodename: string;
  readonly portionPercentage: number | null;
}

export function parseTrackVisitBody(value: unknown, options: { isPortion: boolean }): TrackVisitInput {
  const body = new BodyReader(value);
  const visitId = body.string('visitId', { isRequired: true, isNoWhiteSpace: true });
  const currentItemCodename = body.string('currentItemCodename', { isRequired: true });
  const portionPercentage = options.isPortion
    ? body.number('portionPercentage', { isRequired: true, min: 0, max: 100 })
    : null;
  body.check();
  return { visitId: visitId!, currentItemCodename: currentItemCodename!, portionPercentage };
}

export function parseTrackVisitorBody(value: unknown): { visitId: string; visitor: VisitorInput } {
  const body = new BodyReader(value);
  const visitId = body.string('visitId', { isRequired: true, isNoWhiteSpace: true });
  const visitor = visitorOf(body, { isRequired: true });
  body.check();
  return { visitId: visitId!, visitor: visitor! };
}
