import type { CaseResult } from '../../engine/types.ts';
import type { StudyAudit } from '../../engine/audit/audit-study.ts';
import { auditInWorker } from './audit-client.ts';

/** What the result copies sent to the audit worker keep: the fields the audit and the credit check read. */
function forAudit(r: CaseResult): CaseResult {
  if (r.error !== undefined || !r.failed) return { ...r, factualOutputs: undefined, mismatches: undefined };
  const { id, players, method, failed, vEmpty, vAll, cost, evaluations, permutations, shapley, fixAlone, leaveOneOut, lastTouch, stopReason, fixable, factualOutputs, fixedOutputs } = r;
  return { id, players, method, failed, vEmpty, vAll, cost, evaluations, permutations, shapley, fixAlone, leaveOneOut, lastTouch, stopReason, fixable, factualOutputs, fixedOutputs };
}

/** The Audit view's state: the credit file dropped, and its audit or its problem. */
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

  async open(file: Blob, fileName: string, results: readonly (CaseResult | undefined)[], seed: number): Promise<void> {
    const run = ++this.#run;
    this.status = 'running';
    this.fileName = fileName;
    this.error = null;
    const text = await file.text();
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
