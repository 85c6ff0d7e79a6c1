/**
 * What the command does after the analysis for --repairs, --pairs and --audit (docs/formats.md,
 * "Repairs, training pairs and the credit audit"): fills in repairs a result lacks from its
 * complete coalition table, computes the batch's causal consensus, writes the training pairs and
 * audits the credit signals. Bad input (an unreadable or malformed credit file, an unwritable pairs
 * file) is a FormatError, which the command prints as one line with exit status 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { writeWhole } from './write-whole.ts';
import { safeJsonText } from '../engine/safe-text.ts';
import type { AttributedCaseResult, CaseDef, CaseResult } from '../engine/types.ts';
import { isAnalysedFailure } from '../engine/case-result.ts';
import { causalConsensus, type ConsensusStep } from '../engine/repairs/causal-consensus.ts';
import { repairsFromTable } from '../engine/repairs/table-repairs.ts';
import { trainingPairs, type TrainingPair } from '../engine/repairs/training-pairs.ts';
import { casePairSources } from '../engine/repairs/pair-sources.ts';
import { successLevel } from '../engine/repairs/success-level.ts';
import { replayPairs } from '../replay/index.ts';
import { auditStudy, type CreditSignals, type StudyAudit } from '../engine/audit/audit-study.ts';
import { FormatError } from '../formats/format-error.ts';
import type { ModelCacheEntry } from '../session/types.ts';
import { parseCreditFile } from '../formats/credit-file.ts';
import type { RepairCliOptions } from './repair-args.ts';
import type { ModelOptions } from './args.ts';

/** What the post-analysis needs of the command's analysis. */
export interface RepairAnalysis {
  results: CaseResult[];
  cases: readonly CaseDef[];
  /** The fix each step used, when the definition was compiled. */
  fixes?: readonly { step: string; fix: string | null }[];
  /** Each step's input names, when the definition was compiled. */
  steps?: readonly { name: string; inputs: readonly string[] }[];
  range?: readonly [number, number];
  modelCache?: readonly ModelCacheEntry[];
  settings: { seed: number; repairs?: { success?: number }; models?: Record<string, string> };
}

export interface RepairOutcome {
  /** Per step, the share of failures whose minimal repairs include it (with --repairs or --pairs). */
  consensus?: ConsensusStep[];
  /** Failures searched for repairs, and those without any repair in the search. */
  repairCases?: { searched: number; unrepaired: number; notSearched: number };
  pairs?: { file: string; written: number };
  audit?: StudyAudit;
  notes: string[];
}

export async function afterAnalysis(o: RepairCliOptions, a: RepairAnalysis, model: ModelOptions): Promise<RepairOutcome> {
  const out: RepairOutcome = { notes: [] };
  if (o.repairs || o.pairs !== undefined) {
    const success = successLevel(o.success ?? a.settings.repairs?.success, a.range);
    a.results = a.results.map((r) => (isAnalysedFailure(r) && r.repairs === undefined ? withTableRepairs(r, success) : r));
    const failures = a.results.filter(isAnalysedFailure);
    const searched = failures.filter((r) => r.repairs !== undefined);
    const steps = a.fixes?.map((f) => f.step) ?? [...new Set(failures.flatMap((r) => r.players))];
    out.consensus = causalConsensus(steps, searched.map((r) => r.repairs!.map((x) => x.fixed)));
    out.repairCases = { searched: searched.length, unrepaired: searched.filter((r) => r.repairs!.length === 0).length, notSearched: failures.length - searched.length };
    if (out.repairCases.notSearched > 0) out.notes.push(`${out.repairCases.notSearched} failure${out.repairCases.notSearched === 1 ? ' has' : 's have'} no repair search and no complete coalition table: re-run the study with --repairs`);
    if (o.pairs !== undefined) {
      const pairs = searched.flatMap((r) => {
        const sources = pairSources(r, a);
        // A replayed recorded run pairs its repaired model turns (live or from a saved session).
        return replayPairs(a.cases.find((c) => c.id === r.id)?.inputs ?? {}, r, sources.fixOf) ?? trainingPairs(r, sources);
      });
      writeFileWhole(o.pairs, pairs.map((p) => safeJsonText(JSON.stringify(p))).join('\n') + (pairs.length ? '\n' : ''), 'training pairs');
      out.pairs = { file: o.pairs, written: pairs.length };
      if (pairs.length === 0) out.notes.push(`${o.pairs}: no training pairs (${noPairsReason(searched, a)})`);
    }
  }
  let given: CreditSignals = {};
  if (o.audit !== undefined) {
    let text: string;
    try {
      text = readFileSync(o.audit, 'utf8');
    } catch (e) {
      throw new FormatError('', `cannot read the credit file "${o.audit}": ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    try {
      given = parseCreditFile(text, a.results);
    } catch (e) {
      if (e instanceof FormatError) throw new FormatError(e.path === '' ? o.audit : `${o.audit}: ${e.path}`, e.detail);
      throw e;
    }
  }
  if (o.judgeRubric !== undefined) {
    const { judgeCredit } = await import('./judge-credit.ts');
    const judged = await judgeCredit(o.judgeRubric, a.results.filter(isAnalysedFailure), a.cases, model, a.settings.models);
    given = { ...given, judge: judged.scores };
    out.notes.push(`judge: ${judged.usage.requests} request${judged.usage.requests === 1 ? '' : 's'} sent, ${judged.usage.cacheHits} from the cache`);
  }
  if (o.audit !== undefined || o.judgeRubric !== undefined) {
    out.audit = auditStudy(a.results.filter(isAnalysedFailure), given, a.settings.seed);
    if (o.saveCredit !== undefined) writeFileWhole(o.saveCredit, JSON.stringify({ format: 'agentblame-credit', signals: given }) + '\n', 'credit file');
  }
  return out;
}

function withTableRepairs(r: AttributedCaseResult, success: number): AttributedCaseResult {
  const found = repairsFromTable(r, success);
  return found ? { ...r, ...found } : r;
}

/** Where a case's pairs come from: the fixes used, the step's factual inputs, and a model step's request. */
function pairSources(r: AttributedCaseResult, a: RepairAnalysis) {
  return casePairSources(r, {
    caseInputs: a.cases.find((c) => c.id === r.id)?.inputs ?? {},
    stepInputs: (step) => a.steps?.find((s) => s.name === step)?.inputs,
    fixOf: (step) => a.fixes?.find((f) => f.step === step)?.fix ?? null,
    responses: a.modelCache ?? [],
  });
}

/** Why no training pair was written, in the words that apply to what was analysed (a replay, game tables, a definition). */
function noPairsReason(searched: readonly AttributedCaseResult[], a: RepairAnalysis): string {
  if (searched.length === 0) return 'no failure was searched for repairs';
  const repaired = searched.filter((r) => (r.repairs?.length ?? 0) > 0);
  if (repaired.length === 0) return 'no failure has a repair: no combination of fixes made one succeed';
  const replayed = repaired.some((r) => Object.hasOwn(a.cases.find((c) => c.id === r.id)?.inputs ?? {}, 'recording'));
  if (replayed) return "no repaired model turn of a replay answered otherwise than its recording: a pair is a turn's recorded answer (rejected) against its repaired replay (chosen)";
  if (repaired.every((r) => r.repairedOutputs === undefined)) return 'game tables have no step outputs, and a repair must change what its steps output';
  return 'no repair changed what its steps output';
}

function writeFileWhole(path: string, text: string, what: string): void {
  writeWhole(path, text, what, (message) => new FormatError('', message));
}

export type { TrainingPair };
