/**
 * The most model requests a replay study can send, before it runs (the page's "N of at most M
 * requests"). A model turn's request is decided by which of the players that reach it are fixed
 * (its own player, and those of every turn it quotes, transitively), so per world it has at most
 * 2^k distinct requests for k such players (and no more than the coalitions the method evaluates),
 * less the recorded one, which asks nothing; a judge adds one verdict per distinct replay. It is
 * an upper bound (`upper`) whenever a turn whose context changed may be answered as recorded (the
 * turns after it then ask nothing), Monte Carlo may stop early, or cases share requests.
 */
import { resolveMethod } from '../engine/index.ts';
import { samplingQueryBudget } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import type { Outcome, ReplayRunData } from './types.ts';
import { turnLinks } from './turns.ts';

export interface ReplayRequestBound {
  most: number;
  upper: boolean;
}

const OUTCOME_KINDS: readonly Outcome['kind'][] = ['expect', 'expect-regex', 'judge', 'metric'];

type BoundSettings = Pick<AnalysisSettings, 'method' | 'maxPermutations' | 'mode' | 'worlds'>;

/** What the bound reads of a run: its players, and each turn's kind, player (-1: none) and the turns it quotes. */
export interface BoundRun {
  players: readonly unknown[];
  turns: readonly { kind: string; player: number; dependsOn: readonly number[] }[];
}

/**
 * `players`: the definition's steps (every case's game has them all); `outcome`: its kind (a judge
 * asks too). A turn's request is a function of which of the players that reach it are fixed (its
 * own, and those of every turn it quotes, transitively): at most 2^k distinct requests for k such
 * players (no more than the coalitions evaluated), less the recorded one.
 */
export function replayRequestBound(runs: readonly BoundRun[], players: number, settings: BoundSettings, outcome: Outcome['kind']): ReplayRequestBound {
  const method = resolveMethod(settings.method, players, settings.maxPermutations);
  const coalitions = method === 'exact' ? 2 ** Math.min(players, 52) : Math.min(2 ** Math.min(players, 52), samplingQueryBudget(players, settings.maxPermutations));
  const worlds = settings.mode === 'recorded' ? 1 : settings.worlds;
  const distinct = (reach: number) => Math.min(2 ** Math.min(reach, 52), coalitions);
  let most = 0;
  let upper = method !== 'exact' || runs.length > 1;
  for (const run of runs) {
    const reach = reachingPlayers(run);
    let modelTurns = 0;
    run.turns.forEach((turn, i) => {
      if (turn.kind !== 'model') return;
      modelTurns++;
      most += worlds * (distinct(reach[i].size) - 1);
    });
    // The judge reads the final answer: one verdict per distinct replay at most, the recorded one included.
    if (outcome === 'judge') most += worlds * distinct(new Set(reach.flatMap((r) => [...r])).size);
    // A turn asks only when it is fixed or its context changed: with more than one model turn, or a
    // player that covers no model turn, some coalitions leave turns as recorded.
    if (modelTurns > 1 || run.players.length !== players) upper = true;
  }
  // The prior mode also replays each case's own world, for the factual run it is judged by.
  if (settings.mode === 'prior' && outcome === 'judge') most += runs.length;
  return { most, upper };
}

/** Per turn, the players whose fix can change it: its own, and those of the turns it quotes, transitively. */
function reachingPlayers(run: BoundRun): Set<number>[] {
  const everyone = new Set(run.turns.map((t) => t.player).filter((p) => p >= 0));
  const out: Set<number>[] = [];
  run.turns.forEach((turn, i) => {
    const reach = new Set<number>(turn.player >= 0 ? [turn.player] : []);
    for (const d of turn.dependsOn) {
      // A link that does not point back (never made by the replay's links) could hide a dependency: every player.
      if (!(d >= 0 && d < i)) return void out.push(everyone);
      for (const p of out[d]) reach.add(p);
    }
    out.push(reach);
  });
  return out;
}

/** The outcome kind written into a replay definition's source (`const OUTCOME = {...}`), or null for another definition. */
export function replayOutcomeKind(source: string): Outcome['kind'] | null {
  const written = /^const OUTCOME = \{"kind":"([a-z-]+)"/m.exec(source)?.[1];
  return OUTCOME_KINDS.find((kind) => kind === written) ?? null;
}

/**
 * The model rounds a case of a replay may need: each round but the last sends a request not sent
 * before, so the most requests its runs can send, plus one. Runs whose turns form a chain (each
 * request carrying the answer before it, as a runtape agent's do) take a round per request, past
 * the pools' default cap (MAX_MODEL_ROUNDS) from 500 requests on.
 */
export function replayRounds(def: { runs: readonly ReplayRunData[]; steps: readonly string[]; source: string }, settings: BoundSettings): number {
  const runs = def.runs.map((run) => {
    const links = turnLinks(run);
    return { players: run.players, turns: run.turns.map((turn, i) => ({ kind: turn.kind, player: turn.player, dependsOn: links[i].dependsOn })) };
  });
  return replayRequestBound(runs, def.steps.length, settings, replayOutcomeKind(def.source) ?? 'expect').most + 1;
}
