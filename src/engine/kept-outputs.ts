import type { CaseResult } from './types.ts';
import { MAX_KEPT_OUTPUT_CHARS } from './limits.ts';

/**
 * Whether `value` written as JSON is longer than `limit` characters. Walks the value with an
 * explicit stack and stops as soon as the count passes the limit, so a 300 MB output costs no
 * more than the limit to measure (JSON.stringify would build it all, or fail).
 */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
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
    if (size > limit) return true;
  }
  return false;
}

function keptRecord(outputs: Readonly<Record<string, unknown>>, limit: number): Record<string, unknown> | null {
  let changed: Record<string, unknown> | null = null;
  for (const step of Object.keys(outputs)) {
    if (!jsonLongerThan(outputs[step], limit)) continue;
    changed ??= Object.assign(Object.create(null) as Record<string, unknown>, Object.fromEntries(Object.entries(outputs)));
    changed[step] = `[output cut: more than ${limit} characters of JSON; results keep smaller outputs only]`;
  }
  return changed;
}

/**
 * A result whose kept step outputs (factualOutputs, fixedOutputs) are at most MAX_KEPT_OUTPUT_CHARS
 * each; a bigger one is replaced by a note. Applied where results are made (in the worker), so
 * the host never copies or holds huge outputs.
 */
export function boundKeptOutputs(result: CaseResult, limit = MAX_KEPT_OUTPUT_CHARS): CaseResult {
  const factual = result.factualOutputs ? keptRecord(result.factualOutputs, limit) : null;
  const fixed = result.fixedOutputs ? keptRecord(result.fixedOutputs, limit) : null;
  if (factual === null && fixed === null) return result;
  return { ...result, ...(factual ? { factualOutputs: factual } : {}), ...(fixed ? { fixedOutputs: fixed } : {}) } as CaseResult;
}
