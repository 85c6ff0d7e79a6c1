/**
 * What the two analysis pools share (the page's PageAnalysisPool over Web Workers, the command's
 * NodeAnalysisPool over worker threads or processes): batch size, the cap on model rounds, and the
 * markers a worker reports for where a case is, so a case stopped at its time limit is described
 * the same way by both (docs/architecture.md, "Layers").
 */

/** Largest batch of cases per call: small, so the work still spreads evenly over the workers. */
export const MAX_BATCH = 16;

/** Rounds of model requests one case may take before it is given up (a definition that asks for ever new requests). */
export const MAX_MODEL_ROUNDS = 500;

/** Where a worker is: a step index (>= 0) or one of these markers. */
export const PHASE_IDLE = -1;
export const PHASE_DEFINITION = -2;
export const PHASE_METRIC = -3;
/** Running what a case left behind (promise callbacks) before it is answered. */
export const PHASE_DEFERRED = -4;

/** " in step \"x\"", " in the metric", ...: where a case was when it was stopped ('' when unknown). */
export function phaseText(phase: number | null, players: readonly string[]): string {
  if (phase === null) return '';
  if (phase >= 0 && phase < players.length) return ` in step "${players[phase]}"`;
  if (phase === PHASE_METRIC) return ' in the metric';
  if (phase === PHASE_DEFINITION) return ' while evaluating the definition';
  if (phase === PHASE_DEFERRED) return ' in promise callbacks its steps left running';
  return '';
}
