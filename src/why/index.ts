/**
 * Why this decision (docs/why.md): the public API of `src/why/`. Other folders import the feature
 * only from here (src/architecture.test.ts); its test support is in `src/why/testing/`.
 *
 * `selectCall` picks one model call of a recorded run and its context (`WhyMessage[]`);
 * `explainDecision` cuts that context into pieces and reruns edited contexts through a `Rerun`
 * (`hostRerun` over a model host in the page and the command) until the Fisher and Holm tests
 * name the pieces the decision depends on; `candidateFixes` / `tryFixes` test edits that change it;
 * a check file (`parseCheck`, `serializeCheck`) keeps a finding to run again.
 */
export { callDigest } from './call-digest.ts';
export { CHECK_FORMAT, CHECK_VERSION, type CheckFile, parseCheck, serializeCheck } from './check-file.ts';
export type { PiecePath, WhyMessage } from './context.ts';
export { decides, describePredicate, insteadOf, parseReply, type Predicate, type Reply } from './decision.ts';
export { dryRanking, type DrySuspect } from './dry.ts';
export { candidateFixes, type Fix, fixEdit, type FixResult, tryFixes } from './fixes.ts';
export { hostRerun, type HostRerunOptions, refusesTools, WhyRerunError } from './host-rerun.ts';
export { rerunRequestOf } from './recorded-request.ts';
export { explainDecision, type PairResult, type Rerun, type PieceResult, WHY_DEFAULTS, type WhyOptions, type WhyResult } from './method.ts';
export { applyEdit, missingPiece } from './pieces.ts';
export { describeVariant, type RerunVariant } from './variant.ts';
export { contextOf, recordedReply, selectCall, type SelectedCall } from './select-call.ts';
export { inputProblem, WHY_FLAG_NAMES, type WhyInput, type WhyInputNames, WhySelectionError } from './selection-error.ts';
