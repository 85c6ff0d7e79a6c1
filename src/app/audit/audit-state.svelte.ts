import type { CaseResult } from '../../engine/types.ts';
import type { StudyAudit } from '../../engine/audit/audit-study.ts';
import { auditInWorker } from './audit-client.ts';

/** What the result copies sent to the audit worker keep: the fields the audit and the credit check read. */
function forAudit(r: CaseResult): CaseResult {
  if (r.error !== undefined || !r.failed) return { ...r, factualOutputs: undefined, mismatches: undefined };
  const { id, players, method, failed, vEmpty, vAll, cost, evaluations, permutations, shapley, fixAlone, leaveOneOut, lastTouch, stopReason, fixable, factualOutputs, fixedOutputs } = r;
  return { id, players, method, failed, vEmpty, vAll, cost, evaluations, permutations, shapley, fixAlone, leaveOneOut, lastTouch, stopReason, fixable, factualOutputs, fixedOutputs };
}

/** The Audit view's state: the built-in signals' audit, or the credit file dropped and its audit or its problem. */
export class AuditState {
  status = $state<'idle' | 'running' | 'done' | 'error'>('idle');
  fileName = $state<string | null>(null);
  audit = $state.raw<StudyAudit | null>(null);
  error = $state<string | null>(null);
  #run = 0;
  readonly #audit: typeof auditInWorker;

  /** `audit` runs the audit off the page's thread (tests run it in-process). */
  constructor(audit: typeof auditInWorker = auditInWorker) {
    this.#audit = audit;
  }

  /** The built-in signals asked for while an audit ran: audited once it ends (only the latest). */
  #builtinWaiting: { results: readonly (CaseResult | undefined)[]; seed: number } | null = null;

  /**
   * Audit the built-in signals alone (no credit file needed), unless a credit file is open. Asked
   * while an audit runs (results arriving), it runs once that one ends, with the latest results.
   */
  async builtin(results: readonly (CaseResult | undefined)[], seed: number): Promise<void> {
    if (this.fileName !== null) return;
    if (this.status === 'running') {
      this.#builtinWaiting = { results, seed };
      return;
    }
    await this.open(null, null, results, seed);
    const waiting = this.#builtinWaiting;
    this.#builtinWaiting = null;
    if (waiting && this.fileName === null) await this.builtin(waiting.results, waiting.seed);
  }

  /** Audit a credit file (or, with `file` null, the built-in signals alone) against the results. */
  async open(file: Blob | null, fileName: string | null, results: readonly (CaseResult | undefined)[], seed: number): Promise<void> {
    const run = ++this.#run;
    this.status = 'running';
    this.fileName = fileName;
    this.error = null;
    if (file !== null) this.#builtinWaiting = null;
    const text = file === null ? null : await file.text();
    const outcome = await this.#audit(text, results.filter((r): r is CaseResult => r !== undefined).map(forAudit), seed);
    if (run !== this.#run) return; // a later file replaced this one
    if (outcome.ok) {
      this.audit = outcome.audit;
      this.status = 'done';
    } else {
      this.audit = null;
      this.error = outcome.error;
      this.status = 'error';
    }
  }
}
