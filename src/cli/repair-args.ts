import type { AnalysisSettings } from '../engine/types.ts';
import { UsageError } from './usage-error.ts';
import { REPAIR_SIZE } from '../engine/settings/schema.ts';
import { numberFromText } from '../engine/settings/number-setting.ts';

/** The repairs, training-pairs and audit flags (docs/repairs.md). */
export interface RepairCliOptions {
  /** --repairs: list each failure's minimal repairs and the batch's causal consensus. */
  repairs: boolean;
  /** --success V: the value a repair must reach (default: the upper end of the metric's range). */
  success?: number;
  /** --repair-size K: the largest set a sampled analysis searches (default 3). */
  size?: number;
  /** --pairs FILE.jsonl: write the training pairs of each case's first minimal repair. */
  pairs?: string;
  /** --audit CREDIT.json: audit the built-in and given credit signals against the Shapley values. */
  audit?: string;
  /** --judge-credit RUBRIC: add an LLM judge's credit (one yes/no question per step) to the audit. */
  judgeRubric?: string;
  /** --save-credit FILE: write the audited given and judged signals as an agentblame-credit file. */
  saveCredit?: string;
}

export const DEFAULT_REPAIR_SIZE = 3;

/** Takes one of the flags above; false for any other flag. */
export function takeRepairFlag(o: RepairCliOptions, flag: string, value: () => string): boolean {
  switch (flag) {
    case '--repairs':
      o.repairs = true;
      return true;
    case '--success': {
      const v = value();
      const x = Number(v);
      if (v.trim() === '' || !Number.isFinite(x)) throw new UsageError(`--success: expected a number, got "${v}"`);
      o.success = x;
      return true;
    }
    case '--repair-size': {
      const read = numberFromText(REPAIR_SIZE, value());
      if ('problem' in read) throw new UsageError(`--repair-size: ${read.problem}`);
      o.size = read.value;
      return true;
    }
    case '--pairs':
      o.pairs = value();
      return true;
    case '--audit':
      o.audit = value();
      return true;
    case '--judge-credit': {
      const v = value();
      if (v.trim() === '') throw new UsageError('--judge-credit: expected the rubric the judge is given, got an empty text');
      o.judgeRubric = v;
      return true;
    }
    case '--save-credit':
      o.saveCredit = value();
      return true;
    default:
      return false;
  }
}

/** Checks the flags together and puts the repair search into the analysis settings when asked. */
export function finishRepairFlags(o: RepairCliOptions, settings: AnalysisSettings): void {
  const searching = o.repairs || o.pairs !== undefined;
  if (!searching && o.success !== undefined) throw new UsageError('--success sets the level a repair must reach: give it with --repairs or --pairs FILE');
  if (!searching && o.size !== undefined) throw new UsageError('--repair-size bounds the repair search: give it with --repairs or --pairs FILE');
  if (o.saveCredit !== undefined && o.audit === undefined && o.judgeRubric === undefined) throw new UsageError('--save-credit writes the audited credit signals: give it with --audit FILE or --judge-credit RUBRIC');
  if (searching) settings.repairs = { size: o.size ?? DEFAULT_REPAIR_SIZE, ...(o.success !== undefined && { success: o.success }) };
}

/** Whether the results must keep their step outputs: pairs, the judge and the audit's first-error signal read them. */
export function needsOutputs(o: RepairCliOptions): boolean {
  return o.pairs !== undefined || o.audit !== undefined || o.judgeRubric !== undefined;
}
