/**
 * Replaying recorded runs with interventions (docs/replay.md): the public API of `src/replay/`.
 *
 * `buildReplay(runs, options)` turns recorded runs (RecordedRun, any importer's) into one
 * ordinary pipeline definition, as source text, with each run embedded as a case. Analyse it as
 * any definition (a model host answers its `llm.chat` calls); `replayBlock` gives the per-case
 * `replay` block of the command's JSON (turns, dependency graph, substitutions).
 */
import type { CaseDef } from '../engine/types.ts';
import type { RecordedRun } from '../runs/index.ts';
import { definitionSource, slotNames, type DefinitionParts, type EmbeddedFile } from './definition-source.ts';
import { planRun, ReplayPlanError, type FixSpec } from './plan.ts';
import { turnLinks } from './turns.ts';
import type { Outcome, PlayersKind, ReplayRunData } from './types.ts';

export { ReplayPlanError, parseFixSpec, type FixSpec } from './plan.ts';
export { EmbeddedFileError, type EmbeddedFile } from './definition-source.ts';
export { parseIntervention, InterventionError, INTERVENTION_KINDS } from './interventions.ts';
export { recordedContext, turnLinks, type TurnLinks } from './turns.ts';
export { recordingLinks } from './recording-links.ts';
export { replayRunOf } from './recording-data.ts';
export { compareReplay, type TurnComparison, type TurnSide } from './compare-replay.ts';
export { defaultExportCount, expectedOutcome, metricProbe, toolsProbe } from './user-files.ts';
export { recordedMeetsOutcome, unstubbedToolTurns, type UnstubbedToolTurn } from './setup-checks.ts';
export { PLAYERS_KINDS, type Intervention, type Outcome, type PlayersKind, type ReplayRunData, type ReplayTurn } from './types.ts';

export interface ReplayOptions {
  players: PlayersKind;
  /** `--fix TURN=KIND[:ARG]`, several per turn allowed; model turns without one get `repair`. */
  fixes: readonly FixSpec[];
  /**
   * How success is decided. Null: each run's recorded correct answer (Who&When `ground_truth`),
   * "the final answer contains it"; a run without one is refused.
   */
  outcome: Outcome | null;
  /** `--tools FILE.js` (embedded, so it runs in the definition's sandbox) and the tool names it stubs. */
  tools?: { file: EmbeddedFile; names: ReadonlySet<string> };
  /** Where the runs came from (a file name), for the definition's name and header. */
  origin: string;
}

export interface ReplayDefinition {
  /** The definition's name. */
  name: string;
  /** The definition, as source text (what `--emit-definition` writes). */
  source: string;
  /** Its cases, one per run (the same list the source embeds). */
  cases: CaseDef[];
  /** Each run's plan, in case order. */
  runs: ReplayRunData[];
  /** The definition's steps (players), in order. */
  steps: string[];
  /** What the source was made of (contrast replays are made from the same parts). */
  parts: DefinitionParts;
}

/** One run's (one case's) `replay` block: its turns, what each quotes, and which player it belongs to. */
export interface ReplayBlock {
  players: string[];
  turns: { index: number; step: number; name: string; agent: string; kind: 'model' | 'tool'; player: string | null; fixes: string[]; dependsOn: number[]; substitutions: number }[];
}

/**
 * The replay definition of one or more runs (one case each). Throws ReplayPlanError (a run
 * without turns, a fix naming no turn, no outcome for a run) or EmbeddedFileError (a `--tools` or
 * `--metric` file without one `export default`).
 */
export function buildReplay(runs: readonly RecordedRun[], options: ReplayOptions): ReplayDefinition {
  if (runs.length === 0) throw new ReplayPlanError('no runs to replay');
  const stubs = options.tools?.names ?? new Set<string>();
  const plans = runs.map((run) => planRun(run, { players: options.players, fixes: options.fixes, stubs }));
  const outcome: Outcome = options.outcome ?? { kind: 'expect', text: null };
  if (options.outcome === null) {
    const without = plans.find((p) => p.expected === undefined);
    if (without) throw new ReplayPlanError(`run "${without.id}" records no correct answer: say how success is decided with --expect TEXT|/REGEX/, --judge RUBRIC or --metric FILE.js`);
  }
  const ids = new Set<string>();
  for (const p of plans) {
    if (ids.has(p.id)) throw new ReplayPlanError(`two runs have the id "${p.id}": each run is one case, and case ids must differ`);
    ids.add(p.id);
  }
  const { steps, fixNames } = slotNames(plans, options.players);
  if (steps.length === 0) throw new ReplayPlanError(`run "${plans[0].id}" has no player: no turn has a fix (model turns get repair unless --fix says otherwise; a tool turn needs observation:TEXT or a --tools stub)`);
  const model = runs.flatMap((r) => r.steps).find((s) => s.kind === 'llm' && s.model)?.model ?? undefined;
  const name = runs.length === 1 ? `replay of ${runs[0].name}` : `replay of ${runs.length} runs from ${options.origin}`;
  const parts: DefinitionParts = {
    name,
    steps,
    fixNames,
    runs: plans,
    outcome,
    ...(options.tools && { tools: options.tools.file }),
    ...(outcome.kind === 'metric' && { metric: { fileName: outcome.fileName, source: outcome.source } }),
    origin: runs.length === 1 ? `run "${runs[0].id}" of ${options.origin}` : `${runs.length} runs of ${options.origin}`,
    ...(model !== undefined && { model }),
  };
  const source = definitionSource(parts);
  return { name, source, cases: plans.map((run) => ({ id: run.id, inputs: { recording: run } })), runs: plans, steps, parts };
}

/** The `replay` block of a case's JSON. */
export function replayBlock(plan: ReplayRunData, steps: readonly string[]): ReplayBlock {
  const links = turnLinks(plan);
  return {
    players: steps.slice(0, plan.players.length),
    turns: plan.turns.map((t) => ({
      index: t.index,
      step: t.step,
      name: t.name,
      agent: t.agent,
      kind: t.kind,
      player: t.player >= 0 ? steps[t.player] : null,
      fixes: t.fixes.map((f) => (f.kind === 'stub' ? 'stub' : f.kind)),
      dependsOn: links[t.index].dependsOn,
      substitutions: links[t.index].substitutions,
    })),
  };
}

export { contrastStudy, contrastReport, MIN_COMMITMENT_REPLAYS, type ContrastStudy, type ContrastReport, type ContrastRow } from './contrast.ts';
export { turnRequests, turnSeeds, type TurnRequests } from './turn-requests.ts';
export { replayPairs } from './pairs.ts';
export { replayRequestBound, replayOutcomeKind, replayRounds, type BoundRun, type ReplayRequestBound } from './request-bound.ts';
