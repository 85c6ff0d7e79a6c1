import type { CaseResult } from '../engine/types.ts';
import type { Session } from '../session/types.ts';
import { jsonForScriptBlock } from './embedJson.ts';
import { utf8Length } from './utf8.ts';

/** Bulky, optional result fields, dropped in this order when the embedded session must shrink. */
const TRIM_STAGES: readonly (readonly (keyof CaseResult)[])[] = [
  ['coalitions', 'history'],
  ['coalitions', 'history', 'factualOutputs', 'fixedOutputs'],
];

export interface EmbeddedSession {
  /** Inert JSON text for the data block. */
  json: string;
  /** Result fields left out of the embedded copy to meet the size budget (empty when complete). */
  omitted: (keyof CaseResult)[];
}

/**
 * The session as JSON for the report's data block, whole if it fits in `maxBytes`, else without the
 * bulky optional per-case fields (coalition tables, convergence history, then step outputs), which
 * the session type allows to be absent. Inputs, settings, Shapley values and baselines are always kept,
 * so the reopened session shows the same blame. The storage revision is left out, as in the session file. If even the trimmed copy is too big it is used anyway:
 * losing data silently would be worse than a large file.
 */
export function embedSession(fullSession: Session, maxBytes: number): EmbeddedSession {
  // The storage revision only means something inside one browser's store (as in the session file).
  const { revision: _storageOnly, ...session } = fullSession;
  const whole = jsonForScriptBlock(session);
  if (utf8Length(whole) <= maxBytes) return { json: whole, omitted: [] };
  let attempt: EmbeddedSession = { json: whole, omitted: [] };
  for (const fields of TRIM_STAGES) {
    const results = session.results.map((result) => {
      const copy: Record<string, unknown> = { ...result };
      for (const field of fields) delete copy[field];
      return copy;
    });
    attempt = { json: jsonForScriptBlock({ ...session, results }), omitted: [...fields] };
    if (utf8Length(attempt.json) <= maxBytes) return attempt;
  }
  return attempt;
}
