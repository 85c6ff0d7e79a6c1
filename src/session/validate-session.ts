import type { CaseDef, CaseResult } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { parseCaseList } from '../formats/trace.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import { expectInteger, expectNonEmptyString, expectObject, expectString, rejectUnknownFields } from '../formats/validate.ts';
import { SESSION_STATUSES, type SessionGame, type SessionV0, type SessionV1 } from './types.ts';
import { validateBatch } from './validate-batch.ts';
import { arrayOf, expectOneOf, expectTimestamp, optionalField, requiredField } from './validate-fields.ts';
import { validateSessionGames } from './validate-game.ts';
import { validateCaseResult } from './validate-result.ts';
import { validateSettings } from './validate-settings.ts';
import { validateModelCache, validateStudyMark } from './validate-study.ts';
import { checkResultNumbers } from './check-result-numbers.ts';
import { checkStoredRepairs } from './check-stored-repairs.ts';
import { validateSessionContrast } from './validate-contrast.ts';
import { validateStudyMeta } from './study-meta.ts';
import type { ModelCacheEntry, StudyMark } from './types.ts';

const V1_FIELDS = [
  'format', 'version', 'id', 'name', 'createdAt', 'updatedAt', 'fileName', 'pipeline',
  'cases', 'games', 'settings', 'results', 'batch', 'status', 'study', 'modelCache', 'revision',
  'contrast', 'meta',
] as const;
const V0_FIELDS = ['format', 'version', 'id', 'title', 'savedAt', 'trace', 'settings', 'results', 'batch'] as const;

function validatePipelineSource(value: unknown, path: string): { name: string; source: string } {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['name', 'source'], path);
  return {
    name: requiredField(object, 'name', path, expectString),
    source: requiredField(object, 'source', path, expectString),
  };
}

/** Results must belong to the session's cases or games, one result per case at most. */
function validateResults(value: unknown, path: string, cases: readonly CaseDef[], games: readonly SessionGame[] = []): CaseResult[] {
  const results = arrayOf(value, path, validateCaseResult);
  const caseIds = new Set([...cases.map((c) => c.id), ...games.map((g) => g.id)]);
  const seen = new Set<string>();
  results.forEach((result, index) => {
    const idPath = childPath(indexPath(path, index), 'id');
    if (!caseIds.has(result.id)) throw new FormatError(idPath, `result for ${JSON.stringify(result.id)}, which is not one of the session's cases${games.length > 0 ? ' or games' : ''}`);
    if (seen.has(result.id)) throw new FormatError(idPath, `second result for case ${JSON.stringify(result.id)}`);
    seen.add(result.id);
  });
  return results;
}

/**
 * Every result's numbers against the method's guarantees (check-result-numbers.ts), with the
 * metric's range where the file has one: a game's own (or its values' span), else the study mark's.
 */
function checkResults(results: readonly CaseResult[], path: string, study: StudyMark | undefined, games: readonly SessionGame[] = []): void {
  const gameRanges = new Map(games.map((g) => [g.id, g.range ?? valueSpan(g.values)]));
  // A game study's range is its first table's (what the command aggregated with): the mark may not say otherwise.
  const tableRange = games.length > 0 ? gameRanges.get(games[0].id)! : undefined;
  if (study?.range && tableRange && (study.range[0] !== tableRange[0] || study.range[1] !== tableRange[1])) {
    throw new FormatError('study.range', `[${study.range.join(', ')}] is not the range of the game tables, [${tableRange.join(', ')}]`);
  }
  results.forEach((result, k) => {
    checkResultNumbers(result, indexPath(path, k), gameRanges.get(result.id) ?? study?.range);
    checkStoredRepairs(result, indexPath(path, k));
  });
}

/** The least and greatest value of a game table without a declared range (what the engine infers). */
function valueSpan(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/**
 * The model responses the file's own results name (`modelKeys`): anything else in `modelCache`
 * answers no result of this file, so it is dropped rather than carried on to other analyses.
 */
function namedResponses(entries: readonly ModelCacheEntry[], results: readonly CaseResult[]): ModelCacheEntry[] {
  const named = new Set(results.flatMap((r) => r.modelKeys ?? []));
  return entries.filter((e) => named.has(e.key));
}

/**
 * A version-1 session from untrusted JSON (format and version already checked by the caller).
 * The storage revision is not taken from the file: an imported session has never been stored here.
 */
export function validateSessionV1(value: unknown, path: string): SessionV1 {
  const object = expectObject(value, path);
  rejectUnknownFields(object, V1_FIELDS, path);
  // Fields are read in the order they are written, so the first problem reported is the first in the file.
  const id = requiredField(object, 'id', path, expectNonEmptyString);
  const name = requiredField(object, 'name', path, expectString);
  const createdAt = requiredField(object, 'createdAt', path, expectTimestamp);
  const updatedAt = requiredField(object, 'updatedAt', path, expectTimestamp);
  const fileName = requiredField(object, 'fileName', path, expectString);
  const pipeline = optionalField(object, 'pipeline', path, validatePipelineSource);
  const cases = requiredField(object, 'cases', path, parseCaseList);
  const games = optionalField(object, 'games', path, (v, p) => validateSessionGames(v, p, cases));
  const settings = requiredField(object, 'settings', path, validateSettings);
  const results = requiredField(object, 'results', path, (v, p) => validateResults(v, p, cases, games));
  const batch = optionalField(object, 'batch', path, validateBatch);
  const status = requiredField(object, 'status', path, (v, p) => expectOneOf(v, SESSION_STATUSES, p));
  const study = optionalField(object, 'study', path, validateStudyMark);
  const modelCache = optionalField(object, 'modelCache', path, validateModelCache);
  // A file may carry the revision it had in its own store: checked, then dropped.
  optionalField(object, 'revision', path, expectInteger);
  const contrast = optionalField(object, 'contrast', path, (v, p) => validateSessionContrast(v, p, new Set(cases.map((c) => c.id))));
  const meta = optionalField(object, 'meta', path, validateStudyMeta);
  checkResults(results, childPath(path, 'results'), study, games);
  const ownResponses = modelCache && namedResponses(modelCache, results);
  return {
    format: 'agentblame-session',
    version: 1,
    id,
    name,
    createdAt,
    updatedAt,
    fileName,
    ...(pipeline !== undefined && { pipeline }),
    cases,
    // An empty list is the same as none: the field is written only when there are games.
    ...(games !== undefined && games.length > 0 && { games }),
    settings,
    results,
    ...(batch !== undefined && { batch }),
    status,
    ...(study !== undefined && { study }),
    ...(ownResponses !== undefined && ownResponses.length > 0 && { modelCache: ownResponses }),
    ...(contrast !== undefined && contrast.runs.length > 0 && { contrast }),
    ...(meta !== undefined && { meta }),
    revision: 0,
  };
}

/** A version-0 session (see SessionV0) from untrusted JSON. */
export function validateSessionV0(value: unknown, path: string): SessionV0 {
  const object = expectObject(value, path);
  rejectUnknownFields(object, V0_FIELDS, path);
  const trace = requiredField(object, 'trace', path, (v, tracePath) => {
    const traceObject = expectObject(v, tracePath);
    rejectUnknownFields(traceObject, ['fileName', 'pipeline', 'cases'], tracePath);
    const pipeline = optionalField(traceObject, 'pipeline', tracePath, validatePipelineSource);
    return {
      fileName: requiredField(traceObject, 'fileName', tracePath, expectString),
      ...(pipeline !== undefined && { pipeline }),
      cases: requiredField(traceObject, 'cases', tracePath, parseCaseList),
    };
  });
  const title = optionalField(object, 'title', path, expectString);
  const batch = optionalField(object, 'batch', path, validateBatch);
  const id = requiredField(object, 'id', path, expectNonEmptyString);
  const savedAt = requiredField(object, 'savedAt', path, expectTimestamp);
  const settings = requiredField(object, 'settings', path, validateSettings);
  const results = requiredField(object, 'results', path, (v, p) => validateResults(v, p, trace.cases));
  checkResults(results, childPath(path, 'results'), undefined);
  return {
    format: 'agentblame-session',
    version: 0,
    id,
    ...(title !== undefined && { title }),
    savedAt,
    trace,
    settings,
    results,
    ...(batch !== undefined && { batch }),
  };
}
