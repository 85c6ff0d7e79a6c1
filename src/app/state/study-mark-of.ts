import type { AnalysisSettings, BatchBound } from '../../engine/types.ts';
import type { BatchStopRule } from '../../engine/setting-choices.ts';
import { toSessionGames } from '../../session/games.ts';
import { studyFingerprint } from '../../session/study-fingerprint.ts';
import type { StudyMark } from '../../session/types.ts';
import type { Study } from '../importing/study.ts';

/** The last fingerprint, kept while the study and settings are the very same objects (the autosave asks often). */
let last: { study: Study; settings: AnalysisSettings; fingerprint: string } | null = null;

/**
 * The page's study mark: the study's fingerprint and the batch choices it was analysed under (the
 * batch interval, and the batch stop when on), as the command's --save writes them, so a reopened
 * session aggregates and stops as it did.
 */
export function studyMarkOf(study: Study, settings: AnalysisSettings, batchBound: BatchBound, batchStop: boolean, batchStopRule: BatchStopRule = 'top'): StudyMark {
  if (last === null || last.study !== study || last.settings !== settings) {
    const games = study.games.length > 0 ? toSessionGames(study.games) : undefined;
    last = { study, settings, fingerprint: studyFingerprint({ pipeline: study.pipeline, cases: study.cases, ...(games && { games }), settings }) };
  }
  return { fingerprint: last.fingerprint, batchBound, ...(batchStop && { batchStop: true }), ...(batchStop && batchStopRule !== 'top' && { batchStopRule }) };
}
