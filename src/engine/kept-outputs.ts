import type { CaseResult } from './types.ts';
import { MAX_KEPT_ALONE_OUTPUT_CHARS, MAX_KEPT_OUTPUT_CHARS, MAX_KEPT_OUTPUTS_TOTAL } from './limits.ts';

/**
 * Characters of `value` written as JSON (an estimate: numbers count 8), or any number above
 * `limit` once the count passes it. Walks the value with an explicit stack and stops as soon as
 * the count passes the limit, so a 300 MB output costs no more than the limit to measure
 * (JSON.stringify would build it all, or fail).
 */
export function jsonSizeUpTo(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (item === null || typeof item !== 'object') size += 8;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (let i = item.length - 1; i >= 0 && size <= limit; i--) stack.push(item[i]);
    } else {
      const keys = Object.keys(item);
      size += 2;
      for (let k = keys.length - 1; k >= 0 && size <= limit; k--) {
        size += keys[k].length + 4;
        stack.push((item as Record<string, unknown>)[keys[k]]);
      }
    }
  }
  return size;
}

/** Whether `value` written as JSON is longer than `limit` characters (see jsonSizeUpTo). */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  return jsonSizeUpTo(value, limit) > limit;
}

/** What replaces an output a result does not keep. */
export function cutOutputNote(limit: number): string {
  return `[output cut: more than ${limit} characters of JSON; results keep smaller outputs only]`;
}

/** How much of a case's kept outputs is left, shared by its factual and all-fixed records. */
interface Budget {
  perStep: number;
  left: number;
}

function keptRecord(outputs: Readonly<Record<string, unknown>>, budget: Budget): Record<string, unknown> | null {
  let changed: Record<string, unknown> | null = null;
  for (const step of Object.keys(outputs)) {
    const limit = Math.min(budget.perStep, budget.left);
    const size = jsonSizeUpTo(outputs[step], limit);
    if (size <= limit) {
      budget.left -= size;
      continue;
    }
    // Null prototype: a step may be called `__proto__` (engine/named-record.ts).
    changed ??= Object.assign(Object.create(null) as Record<string, unknown>, Object.fromEntries(Object.entries(outputs)));
    changed[step] = cutOutputNote(limit);
  }
  return changed;
}

/** Each player's record within one budget (players in order); null when every output fits. */
function keptPerPlayer(outputs: Readonly<Record<string, Readonly<Record<string, unknown>>>>, budget: Budget): Record<string, Record<string, unknown>> | null {
  let changed: Record<string, Record<string, unknown>> | null = null;
  for (const player of Object.keys(outputs)) {
    const kept = keptRecord(outputs[player], budget);
    if (kept === null) continue;
    changed ??= Object.assign(Object.create(null) as Record<string, Record<string, unknown>>, Object.fromEntries(Object.entries(outputs)));
    changed[player] = kept;
  }
  return changed;
}

/**
 * A result whose kept step outputs (factualOutputs, fixedOutputs, repairedOutputs, then
 * aloneOutputs within MAX_KEPT_ALONE_OUTPUT_CHARS of what is left) are at most `perStep`
 * characters of JSON each and `perCase` together (factual first, in step order); an output past
 * either is replaced by a note. Applied where results are made (in the worker, per step), so the
 * host never copies huge outputs, and again where results are kept (with the case's share of
 * MAX_KEPT_OUTPUTS_TOTAL), so a study's results stay small however many cases it has.
 */
export function boundKeptOutputs(result: CaseResult, perStep = MAX_KEPT_OUTPUT_CHARS, perCase = Infinity): CaseResult {
  const budget: Budget = { perStep, left: perCase };
  const factual = result.factualOutputs ? keptRecord(result.factualOutputs, budget) : null;
  const fixed = result.fixedOutputs ? keptRecord(result.fixedOutputs, budget) : null;
  const repaired = result.repairedOutputs ? keptRecord(result.repairedOutputs, budget) : null;
  const alone = result.aloneOutputs ? keptPerPlayer(result.aloneOutputs, { perStep, left: Math.min(budget.left, MAX_KEPT_ALONE_OUTPUT_CHARS) }) : null;
  if (factual === null && fixed === null && repaired === null && alone === null) return result;
  return { ...result, ...(factual ? { factualOutputs: factual } : {}), ...(fixed ? { fixedOutputs: fixed } : {}), ...(repaired ? { repairedOutputs: repaired } : {}), ...(alone ? { aloneOutputs: alone } : {}) } as CaseResult;
}

/**
 * Characters of kept outputs one case of a study of `cases` cases may hold: an equal share of
 * MAX_KEPT_OUTPUTS_TOTAL, so every case is treated alike whatever order cases finish in.
 */
export function keptOutputsPerCase(cases: number): number {
  return Math.floor(MAX_KEPT_OUTPUTS_TOTAL / Math.max(1, cases));
}

/** A result as a study of `cases` cases keeps it: its outputs within the case's share. */
export function keptResult(result: CaseResult, cases: number): CaseResult {
  return boundKeptOutputs(result, MAX_KEPT_OUTPUT_CHARS, keptOutputsPerCase(cases));
}
