/**
 * The audit worker: checks a dropped credit file against the study's results and audits every
 * signal (10 000 bootstrap resamples each), off the page's thread.
 */
import * as Comlink from 'comlink';
import type { CaseResult } from '../../engine/types.ts';
import { isAnalysedFailure } from '../../engine/case-result.ts';
import { auditStudy, type StudyAudit } from '../../engine/audit/audit-study.ts';
import { parseCreditFile } from '../../formats/credit-file.ts';

export type AuditOutcome = { ok: true; audit: StudyAudit } | { ok: false; error: string };

const api = {
  /** `text`: a credit file's text, or null for the built-in signals alone. */
  run(text: string | null, results: CaseResult[], seed: number): AuditOutcome {
    try {
      const given = text === null ? {} : parseCreditFile(text, results);
      return { ok: true, audit: auditStudy(results.filter(isAnalysedFailure), given, seed) };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  },
};

export type AuditWorkerApi = typeof api;
Comlink.expose(api);
