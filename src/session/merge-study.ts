/**
 * Merging session files of one study (shards written on several machines, or partial runs): the
 * cases in the study's order, the batch aggregated again, so the merge equals one unsharded run.
 * Files are untrusted and may come from different studies: every refusal names the file and the
 * difference.
 */
import { aggregateBatch } from '../engine/batch.ts';
import { sumUsage } from '../engine/model-call.ts';
import type { BatchBound, CaseResult } from '../engine/types.ts';
import { buildSession } from './build-session.ts';
import { studyAsStored, studyFingerprint } from './study-fingerprint.ts';
import type { ModelCacheEntry, Session, StudyMeta } from './types.ts';
import { mergedContrast } from './merge-contrast.ts';
import { answerText } from '../engine/answer-text.ts';

/** One session and the file (or dropped file's name) it came from. */
export interface NamedSession {
  file: string;
  session: Session;
}

/** A merge that cannot be done: the message names the file and what differs. */
export class StudyMergeError extends Error {
  override name = 'StudyMergeError';
}

export interface MergeOptions {
  /** Merge what is there when results are missing (else refused). */
  allowPartial?: boolean;
  /** Aggregate the batch with this bound instead of the one the files were aggregated with. */
  batchBound?: BatchBound;
}

export interface MergedStudy {
  session: Session;
  /** Ids of cases (or games) no file has a result for; empty when the study is complete. */
  missing: string[];
  /** What is missing, in words (empty when nothing is). */
  missingText: string;
}

const quote = (s: string): string => JSON.stringify(s);
const shortJson = (v: unknown): string => {
  const text = JSON.stringify(v) ?? 'absent';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** What differs between two studies, in words ('' when they are the same study). */
export function studyDifference(a: Session, b: Session): string {
  const sa = studyAsStored(a) as { pipeline: unknown; cases: unknown[]; games: { id: string }[]; settings: Record<string, unknown> };
  const sb = studyAsStored(b) as typeof sa;
  if (JSON.stringify(sa.pipeline) !== JSON.stringify(sb.pipeline)) return 'a different pipeline definition';
  const keys = [...new Set([...Object.keys(sa.settings), ...Object.keys(sb.settings)])].sort();
  const settings = keys.filter((k) => JSON.stringify(sa.settings[k]) !== JSON.stringify(sb.settings[k]));
  if (settings.length > 0) return `other settings: ${settings.map((k) => `${k} ${shortJson(sb.settings[k])}, not ${shortJson(sa.settings[k])}`).join('; ')}`;
  for (const [what, la, lb] of [['cases', sa.cases, sb.cases], ['games', sa.games, sb.games]] as const) {
    if (la.length !== lb.length) return `${lb.length} ${what}, not ${la.length}`;
    const j = la.findIndex((item, k) => JSON.stringify(item) !== JSON.stringify(lb[k]));
    if (j >= 0) return `${what.slice(0, -1)} ${j + 1} (${quote(String((lb[j] as { id?: unknown }).id))}) differs`;
  }
  return '';
}

/**
 * The metric range and batch bound of a study mark are not part of its fingerprint (they come
 * from the definition and the command line), so files that disagree on them are refused rather
 * than merged under whichever came first.
 */
function sameMarks(inputs: readonly NamedSession[]): void {
  for (const field of ['range', 'batchBound'] as const) {
    const first = inputs.find(({ session }) => session.study?.[field] !== undefined);
    if (!first) continue;
    const expected = JSON.stringify(first.session.study![field]);
    for (const { file, session } of inputs) {
      const value = session.study?.[field];
      if (value === undefined || JSON.stringify(value) === expected) continue;
      const show = (text: string) => text.replace(/,/g, ', ');
      throw new StudyMergeError(`"${file}": study.${field} is ${show(JSON.stringify(value))}, not ${show(expected)} as in "${first.file}"`);
    }
  }
}

/**
 * The union of the files' model responses, one per request key. Two files that answer the same
 * request differently are refused: results computed from either answer cannot be told apart, and
 * a merge of both would be a study nobody computed.
 */
function mergedResponses(inputs: readonly NamedSession[]): ModelCacheEntry[] {
  const byKey = new Map<string, { entry: ModelCacheEntry; file: string; response: string }>();
  for (const { file, session } of inputs) {
    (session.modelCache ?? []).forEach((entry, k) => {
      const response = answerText(entry.response);
      const known = byKey.get(entry.key);
      if (!known) byKey.set(entry.key, { entry, file, response });
      else if (known.response !== response) {
        throw new StudyMergeError(`"${file}": modelCache[${k}]: a different response for request ${entry.key.slice(0, 12)}... than "${known.file}" has`);
      }
    });
  }
  return [...byKey.values()].map((x) => x.entry);
}

/** "2/3 and 3/3" */
function listShards(indices: number[], count: number): string {
  const parts = indices.map((i) => `${i}/${count}`);
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * Merges sessions of one study. Refuses (StudyMergeError) files of other studies, a file whose
 * stored fingerprint does not match its contents, two files of the same shard, two files with a
 * result for the same case, and (unless allowPartial) a study with cases no file has a result for.
 */
export function mergeStudySessions(inputs: readonly NamedSession[], options: MergeOptions = {}): MergedStudy {
  if (inputs.length === 0) throw new StudyMergeError('no session files to merge');
  const fingerprints = inputs.map(({ file, session }) => {
    const fingerprint = studyFingerprint(session);
    if (session.study && session.study.fingerprint !== fingerprint) {
      throw new StudyMergeError(`"${file}": its study fingerprint does not match its definition, cases and settings (was the file edited?)`);
    }
    return fingerprint;
  });
  const first = inputs[0];
  inputs.forEach(({ file, session }, k) => {
    if (fingerprints[k] === fingerprints[0]) return;
    const difference = studyDifference(first.session, session) || 'a different study';
    throw new StudyMergeError(`"${file}" is not the same study as "${first.file}": ${difference}`);
  });

  sameMarks(inputs);

  // Shards: one count for all, each index once.
  const byShard = new Map<number, string>();
  let shardCount: number | undefined;
  for (const { file, session } of inputs) {
    const shard = session.study?.shard;
    if (!shard) continue;
    if (shardCount !== undefined && shard.count !== shardCount) {
      throw new StudyMergeError(`"${file}" is shard ${shard.index}/${shard.count}, but the others split the study ${shardCount} ways`);
    }
    shardCount = shard.count;
    const other = byShard.get(shard.index);
    if (other !== undefined) throw new StudyMergeError(`"${file}" is shard ${shard.index}/${shard.count} again (as is "${other}"): give each shard once`);
    byShard.set(shard.index, file);
  }

  // Results: one per case, from whichever file has it.
  const order = [...first.session.cases.map((c) => c.id), ...(first.session.games ?? []).map((g) => g.id)];
  const found = new Map<string, { result: CaseResult; file: string }>();
  for (const { file, session } of inputs) {
    for (const result of session.results) {
      const other = found.get(result.id);
      if (other) throw new StudyMergeError(`"${file}" and "${other.file}" overlap: both have a result for case ${quote(result.id)}`);
      found.set(result.id, { result, file });
    }
  }
  const results: CaseResult[] = [];
  const missing: string[] = [];
  for (const id of order) {
    const hit = found.get(id);
    if (hit) results.push(hit.result);
    else missing.push(id);
  }
  let missingText = '';
  if (missing.length > 0) {
    const cases = `${missing.length} of ${order.length} cases have no result (${missing.slice(0, 5).map(quote).join(', ')}${missing.length > 5 ? ', ...' : ''})`;
    if (shardCount !== undefined) {
      const absent = [...new Set(missing.map((id) => (order.indexOf(id) % shardCount!) + 1))].sort((a, b) => a - b);
      const whole = absent.filter((i) => !byShard.has(i));
      missingText = whole.length > 0 ? `missing shard ${listShards(whole, shardCount)}: ${cases}` : `some shards are incomplete: ${cases}`;
    } else {
      missingText = cases;
    }
    if (!options.allowPartial) throw new StudyMergeError(`${missingText}; run the missing part, or pass --allow-partial to merge what is there`);
  }

  const marks = inputs.map((i) => i.session.study);
  const bound = options.batchBound ?? marks.find((m) => m?.batchBound)?.batchBound ?? 'normal';
  const range = marks.find((m) => m?.range)?.range;
  const batch = aggregateBatch(results, { delta: first.session.settings.delta, bound, range });
  const usage = sumUsage(results.map((r) => r.usage));
  if (usage) batch.usage = usage;

  const modelCache = mergedResponses(inputs);
  const createdAt = inputs.map((i) => i.session.createdAt).sort()[0];
  const session = buildSession({
    id: first.session.id,
    name: first.session.name,
    createdAt,
    fileName: first.session.fileName,
    pipeline: first.session.pipeline,
    cases: first.session.cases,
    storedGames: first.session.games,
    settings: first.session.settings,
    results,
    batch,
    // A partial merge opens in the page as a study to resume, not as a finished one.
    status: missing.length > 0 ? 'idle' : 'done',
    study: { fingerprint: fingerprints[0], batchBound: bound, ...(range && { range: [range[0], range[1]] as [number, number] }) },
    modelCache,
    contrast: mergedContrast(inputs, (message) => new StudyMergeError(message)),
    meta: mergedMeta(inputs.map((i) => i.session.meta)),
  });
  return { session, missing, missingText };
}

/**
 * The shards' metadata as one: the first shard's version label and tags, recorded when the
 * earliest shard's cases were (shards of one study are one recording split over machines).
 */
function mergedMeta(metas: readonly (StudyMeta | undefined)[]): StudyMeta | undefined {
  const given = metas.filter((m): m is StudyMeta => m !== undefined);
  if (given.length === 0) return undefined;
  const earliest = given.reduce((a, b) => (Date.parse(b.recordedAt) < Date.parse(a.recordedAt) ? b : a));
  return { ...given[0], recordedAt: earliest.recordedAt, recordedFrom: earliest.recordedFrom };
}
