/**
 * Single-step contrast and point of commitment (docs/replay.md, "--contrast"). For each model turn
 * t of a run, N replays keep the turns before t as recorded and regenerate every model turn from t
 * on (resampled, one world per replay), and N keep t too and regenerate after it. Per turn: the
 * failure rate each way (Wilson 95%), their difference (Newcombe 95%), and the point of
 * commitment: the earliest turn whose recorded prefix, t included, reproduces the failure in at
 * least 1 - epsilon of the replays by the Wilson lower bound.
 *
 * Both arms are replays of one-step definitions (no players to split), so a replay costs its
 * own requests only; "t kept" is "regenerate from the next model turn", shared with that turn's row.
 */
import type { CaseDef, CaseResult } from '../engine/types.ts';
import { newcombeInterval } from '../engine/stats/newcombe-interval.ts';
import { fewestTrialsReaching, wilsonInterval } from '../engine/stats/wilson-interval.ts';
import { COMMITMENT_EPSILON, commitmentRow } from '../engine/stats/commitment.ts';
import { definitionSource, type DefinitionParts } from './definition-source.ts';
import type { ReplayRunData } from './types.ts';

export { COMMITMENT_EPSILON };

/**
 * The fewest replays per arm that can show a point of commitment: with fewer, even N failures of
 * N leave the Wilson lower bound below 1 - epsilon (35 at epsilon 0.1: 35/35 gives 0.9011, 34/34
 * 0.8985). The page's default, and what the command and report say a smaller N can never do.
 */
export const MIN_COMMITMENT_REPLAYS = fewestTrialsReaching(1 - COMMITMENT_EPSILON);

export interface ContrastStudy {
  source: string;
  cases: CaseDef[];
  /** Per case id: its run and the turn it regenerates from (turns.length: none). */
  arms: Map<string, { run: string; from: number }>;
}

/** The contrast replays of the runs, N per arm, as one definition with one case per replay. */
export function contrastStudy(parts: DefinitionParts, runs: readonly ReplayRunData[], n: number): ContrastStudy {
  const arms = new Map<string, { run: string; from: number }>();
  const cases: CaseDef[] = [];
  const plain = runs.map((run) => ({ ...run, players: ['replay'], interleaved: false, turns: run.turns.map((t) => ({ ...t, fixes: [], player: -1, segment: 0 })) }));
  for (const run of plain) {
    for (const from of armStarts(run)) {
      for (let r = 0; r < n; r++) {
        const id = `${run.id} contrast from ${from} #${r + 1}`;
        arms.set(id, { run: run.id, from });
        cases.push({ id, inputs: { recording: { ...run, regenerateFrom: from } }, seed: r + 1 });
      }
    }
  }
  const source = definitionSource({ ...parts, name: `contrast of ${parts.name}`.slice(0, 200), steps: ['replay'], fixNames: ['none'], runs: [] });
  return { source, cases, arms };
}

/** The model turns' indices, then one past the last turn (the arm that regenerates nothing after the last model turn). */
function armStarts(run: ReplayRunData): number[] {
  return [...run.turns.filter((t) => t.kind === 'model').map((t) => t.index), run.turns.length];
}

export interface ArmRate {
  failures: number;
  n: number;
  rate: number;
  ci: [number, number];
}

export interface ContrastRow {
  index: number;
  step: number;
  name: string;
  agent: string;
  /** Turns before t recorded, t and after regenerated. */
  regenerated: ArmRate;
  /** Turns up to t recorded, after t regenerated. */
  kept: ArmRate;
  /** regenerated.rate - kept.rate, with Newcombe's 95% interval. */
  difference: number;
  ci: [number, number];
}

export interface ContrastReport {
  contrast: ContrastRow[];
  /** The earliest turn whose recorded prefix reproduces the failure (Wilson lower bound >= 1 - epsilon), or null. */
  commitment: { index: number; step: number; name: string; agent: string } | null;
  /** Contrast replays that ended in an error (not counted in any rate). */
  errors: number;
}

function arm(results: readonly CaseResult[]): ArmRate {
  const ok = results.filter((r) => r.error === undefined);
  const failures = ok.filter((r) => r.failed).length;
  return { failures, n: ok.length, rate: ok.length === 0 ? 0 : failures / ok.length, ci: wilsonInterval(failures, ok.length) };
}

/** One run's contrast rows and point of commitment, from the contrast study's results. */
export function contrastReport(run: ReplayRunData, study: ContrastStudy, results: readonly CaseResult[]): ContrastReport {
  const byStart = new Map<number, CaseResult[]>();
  let errors = 0;
  for (const result of results) {
    const a = study.arms.get(result.id);
    if (!a || a.run !== run.id) continue;
    if (result.error !== undefined) errors++;
    const list = byStart.get(a.from) ?? [];
    list.push(result);
    byStart.set(a.from, list);
  }
  const starts = armStarts(run);
  const models = run.turns.filter((t) => t.kind === 'model');
  const contrast = models.map((t, k): ContrastRow => {
    const regenerated = arm(byStart.get(starts[k]) ?? []);
    const kept = arm(byStart.get(starts[k + 1]) ?? []);
    return { index: t.index, step: t.step, name: t.name, agent: t.agent, regenerated, kept, difference: regenerated.rate - kept.rate, ci: newcombeInterval(regenerated.failures, regenerated.n, kept.failures, kept.n) };
  });
  const committed = commitmentRow(contrast);
  return { contrast, commitment: committed ? { index: committed.index, step: committed.step, name: committed.name, agent: committed.agent } : null, errors };
}
