import type { CreditSignals } from '../engine/audit/audit-study.ts';
import type { CaseResult } from '../engine/types.ts';
import { FormatError } from './format-error.ts';
import { childPath } from './json-path.ts';
import { expectObject, expectFiniteNumber, ownField } from './validate.ts';

/**
 * A credit file (`agentblame-credit`: `{ "signals": { NAME: { CASE_ID: { STEP: score } } } }`),
 * checked against the study it audits: every case must be one of the study's, every step one of
 * its case's players, every score a finite number. Problems name the JSON path.
 */
export function parseCreditFile(text: string, results: readonly CaseResult[]): CreditSignals {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new FormatError('', `not JSON: ${(e as Error).message}`);
  }
  const root = expectObject(json, '');
  const format = ownField(root, 'format');
  if (format !== undefined && format !== 'agentblame-credit') throw new FormatError('format', `expected "agentblame-credit", got ${JSON.stringify(format)}`);
  const signals = expectObject(ownField(root, 'signals'), 'signals');
  const byId = new Map(results.map((r) => [r.id, r]));
  const out: Record<string, Record<string, Record<string, number>>> = Object.create(null);
  for (const name of Object.keys(signals)) {
    const signalPath = childPath('signals', name);
    const cases = expectObject(signals[name], signalPath);
    const byCase: Record<string, Record<string, number>> = Object.create(null);
    for (const id of Object.keys(cases)) {
      const casePath = childPath(signalPath, id);
      const result = byId.get(id);
      if (!result) throw new FormatError(casePath, `no case "${id}" in the study (cases: ${[...byId.keys()].slice(0, 8).join(', ')}${byId.size > 8 ? ', ...' : ''})`);
      const steps = expectObject(cases[id], casePath);
      const scores: Record<string, number> = Object.create(null);
      for (const step of Object.keys(steps)) {
        const stepPath = childPath(casePath, step);
        if (!result.players.includes(step)) throw new FormatError(stepPath, `case "${id}" has no step "${step}" (steps: ${result.players.join(', ')})`);
        scores[step] = expectFiniteNumber(steps[step], stepPath);
      }
      byCase[id] = scores;
    }
    out[name] = byCase;
  }
  return out;
}
