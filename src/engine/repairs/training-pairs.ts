import type { AttributedCaseResult, LlmMessage } from '../types.ts';
import { canonicalize } from '../canonical.ts';
import { ownValue } from '../named-record.ts';
import { cutOutputNote } from '../kept-outputs.ts';

/** How a kept output that was cut for size begins: such an output is no training text. */
const CUT_PREFIX = cutOutputNote(0).slice(0, cutOutputNote(0).indexOf(':') + 1);

/**
 * One line of a training-pairs file (CausalFlow's validated contrastive pairs): the step's
 * prompt, its output in the repaired run (chosen) and as run (rejected), so it reads as a
 * preference (DPO) record as it is; the rest says where it came from.
 */
export interface TrainingPair {
  prompt: string | LlmMessage[];
  chosen: string;
  rejected: string;
  case: string;
  step: string;
  fix: string | null;
  /** v with no fix and with the repair. */
  before: number;
  after: number;
  shapley: number;
}

export interface PairSources {
  /** The fix a step used. */
  fixOf(step: string): string | null;
  /** The step's factual inputs by name (case inputs and earlier outputs), or null when unknown. */
  inputsOf(step: string): Record<string, unknown> | null;
  /** For a model step: the request messages that produced `output` as run, or null. */
  requestOf?(step: string, output: string): LlmMessage[] | null;
}

/** An output as text: strings as they are, anything else as canonical JSON. */
export function outputText(value: unknown): string {
  return typeof value === 'string' ? value : canonicalize(value);
}

/**
 * The training pairs of one repaired case: one per step of its first (smallest, then cheapest)
 * minimal repair. A step whose output the repair leaves unchanged in the first world teaches
 * nothing and is left out, as is one with an empty output or prompt.
 */
export function trainingPairs(r: AttributedCaseResult, sources: PairSources): TrainingPair[] {
  const repair = r.repairs?.[0];
  const before = r.factualOutputs;
  const after = r.repairedOutputs;
  if (!repair || !before || !after) return [];
  const out: TrainingPair[] = [];
  for (const step of repair.fixed) {
    if (!Object.hasOwn(before, step) || !Object.hasOwn(after, step)) continue;
    const rejected = outputText(ownValue(before, step));
    const chosen = outputText(ownValue(after, step));
    if (chosen === rejected || chosen === '' || rejected === '' || chosen.startsWith(CUT_PREFIX) || rejected.startsWith(CUT_PREFIX)) continue;
    const request = sources.requestOf?.(step, rejected) ?? null;
    const inputs = sources.inputsOf(step);
    const prompt = request ?? (inputs === null ? '' : `${step}(${canonicalize(inputs)})`);
    if (prompt === '' || (Array.isArray(prompt) && prompt.length === 0)) continue;
    out.push({ prompt, chosen, rejected, case: r.id, step, fix: sources.fixOf(step), before: r.vEmpty, after: repair.value, shapley: ownValue(r.shapley, step) ?? 0 });
  }
  return out;
}
