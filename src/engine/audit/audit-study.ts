import type { AttributedCaseResult } from '../types.ts';
import { hashWithSeed } from '../hash.ts';
import { seededRng } from '../rng.ts';
import { auditSignal, type AuditCase, type SignalAudit } from './audit-signal.ts';
import { BUILTIN_SIGNALS, builtinSignalScores } from './builtin-signals.ts';

/** Given credit: per signal, per case id, per step, a score (the `agentblame-credit` file, validated). */
export type CreditSignals = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>>;

export interface StudyAudit {
  /** Resamples of each bootstrap. */
  resamples: number;
  seed: number;
  signals: ({ name: string; builtin: boolean } & SignalAudit)[];
}

/** Each signal's own random streams, so adding or reordering signals never moves another's numbers. */
function rngsFor(seed: number, name: string) {
  return {
    shuffle: seededRng(hashWithSeed(`audit-shuffle\u0000${name}`, seed)),
    bootstrap: seededRng(hashWithSeed(`audit-bootstrap\u0000${name}`, seed)),
    controlBootstrap: seededRng(hashWithSeed(`audit-control\u0000${name}`, seed)),
  };
}

/**
 * The audit of a study: the built-in signals and any given ones, each against the analysed
 * failures' Shapley values as ground truth. A given signal is asked about the cases it scores;
 * a case where it leaves a step unscored is undefined for it.
 */
export function auditStudy(failures: readonly AttributedCaseResult[], given: CreditSignals, seed: number, resamples = 10_000): StudyAudit {
  const truthOf = (r: AttributedCaseResult) => r.players.map((s) => r.shapley[s]);
  const builtins = failures.map(builtinSignalScores);
  const signals: StudyAudit['signals'] = BUILTIN_SIGNALS.map((name) => {
    const cases: AuditCase[] = failures.map((r, k) => ({ id: r.id, truth: truthOf(r), scores: builtins[k][name] }));
    return { name, builtin: true, ...auditSignal(cases, rngsFor(seed, name), resamples) };
  });
  for (const name of Object.keys(given)) {
    const byCase = given[name];
    const cases: AuditCase[] = failures
      .filter((r) => Object.hasOwn(byCase, r.id))
      .map((r) => {
        const scores = byCase[r.id];
        const complete = r.players.every((s) => Object.hasOwn(scores, s));
        return { id: r.id, truth: truthOf(r), scores: complete ? r.players.map((s) => scores[s]) : null };
      });
    signals.push({ name, builtin: false, ...auditSignal(cases, rngsFor(seed, `given\u0000${name}`), resamples) });
  }
  return { resamples, seed, signals };
}
