/**
 * A run's replay plan (docs/replay.md): its turns with the fix each gets (`--fix`, default
 * `repair` for every model turn; a tool turn only with a fix of its own or a `--tools` stub), the
 * players they form (`steps`, `turns` or `agents`) and which definition step replays each turn.
 */
import type { RecordedRun } from '../runs/index.ts';
import { InterventionError, parseIntervention } from './interventions.ts';
import { baseTurns, recordedContext, taskOf, type BaseRun, type BaseTurn } from './turns.ts';
import type { Intervention, PlayersKind, ReplayRunData, ReplayTurn } from './types.ts';

/** A replay that cannot be set up: the message names the run, the turn or the fix. */
export class ReplayPlanError extends Error {
  override name = 'ReplayPlanError';
}

/** One `--fix TURN=KIND[:ARG]` (TURN: the step index as `--inspect` numbers steps, or a turn's name). */
export interface FixSpec {
  turn: string;
  fix: string;
}

/** Reads `TURN=KIND[:ARG]`; throws ReplayPlanError. */
export function parseFixSpec(text: string): FixSpec {
  const eq = text.indexOf('=');
  if (eq <= 0 || eq === text.length - 1) throw new ReplayPlanError(`--fix: expected TURN=KIND[:ARG], got "${text}"`);
  return { turn: text.slice(0, eq), fix: text.slice(eq + 1) };
}

export interface PlanOptions {
  players: PlayersKind;
  fixes: readonly FixSpec[];
  /** Tool names the `--tools` file has stubs for. */
  stubs: ReadonlySet<string>;
}

const MODEL_ONLY = new Set(['resample', 'action', 'context', 'policy', 'repair']);

/** The turns TURN names: its step index, or its name (`Agent · model`, `tool NAME`), or a tool's name, or an agent's (every model turn of it). */
function turnsNamed(run: RecordedRun, turns: readonly BaseTurn[], name: string): BaseTurn[] {
  if (/^\d+$/.test(name)) {
    const step = Number(name);
    const found = turns.filter((t) => t.step === step);
    if (found.length === 0) throw new ReplayPlanError(`--fix ${name}=…: run "${run.id}" has no turn at step ${step} (turns are at steps ${turns.map((t) => t.step).join(', ') || 'none'})`);
    return found;
  }
  const exact = turns.filter((t) => t.name === name);
  const found = exact.length > 0 ? exact : turns.filter((t) => (t.kind === 'tool' ? t.name === `tool ${name}` : t.agent === name));
  if (found.length === 0) throw new ReplayPlanError(`--fix ${name}=…: run "${run.id}" has no turn named "${name}" (names: ${[...new Set(turns.map((t) => t.name))].join(', ')})`);
  return found;
}

function fixesOf(run: RecordedRun, base: BaseRun, options: PlanOptions): Intervention[][] {
  const turns = base.turns;
  const given: (Intervention[] | undefined)[] = turns.map(() => undefined);
  for (const spec of options.fixes) {
    let intervention: Intervention;
    try {
      intervention = parseIntervention(spec.fix);
    } catch (e) {
      if (e instanceof InterventionError) throw new ReplayPlanError(`--fix ${spec.turn}=${spec.fix}: ${e.message}`);
      throw e;
    }
    for (const turn of turnsNamed(run, turns, spec.turn)) {
      if (turn.kind === 'tool' && MODEL_ONLY.has(intervention.kind)) throw new ReplayPlanError(`--fix ${spec.turn}=${spec.fix}: step ${turn.step} ("${turn.name}") is a tool turn; a tool turn's fix is observation:TEXT (or a --tools stub)`);
      if (turn.kind === 'model' && intervention.kind === 'observation') throw new ReplayPlanError(`--fix ${spec.turn}=${spec.fix}: step ${turn.step} ("${turn.name}") is a model turn; observation:TEXT replaces a tool result (a model turn's output: action:TEXT)`);
      const length = recordedContext(turn, { task: '', ...base }).length;
      if (intervention.kind === 'context' && intervention.op !== 'system+=' && intervention.index >= length) {
        throw new ReplayPlanError(`--fix ${spec.turn}=${spec.fix}: step ${turn.step} ("${turn.name}") has ${length} context messages (0 to ${length - 1})`);
      }
      (given[turn.index] ??= []).push(intervention);
    }
  }
  return turns.map((turn, i) => given[i] ?? (turn.kind === 'model' ? [{ kind: 'repair' }] : turn.call && options.stubs.has(turn.call.name) ? [{ kind: 'stub' }] : []));
}

/** The player of each turn (-1: none) and the players' agents, in order. */
function playersOf(turns: readonly BaseTurn[], fixes: readonly Intervention[][], kind: PlayersKind): { player: number[]; owners: BaseTurn[][] } {
  const player = turns.map(() => -1);
  const owners: BaseTurn[][] = [];
  const byAgent = new Map<string, number>();
  for (const turn of turns) {
    const hasFix = fixes[turn.index].length > 0;
    let p = -1;
    if (kind === 'turns' && turn.kind === 'tool' && turn.caller !== undefined && turn.caller >= 0 && player[turn.caller] >= 0) p = player[turn.caller];
    else if (!hasFix) p = -1;
    else if (kind === 'agents') p = byAgent.get(turn.agent) ?? owners.length;
    else p = owners.length;
    if (p === owners.length) {
      owners.push([]);
      if (kind === 'agents') byAgent.set(turn.agent, p);
    }
    if (p >= 0) owners[p].push(turn);
    player[turn.index] = p;
  }
  return { player, owners };
}

/** Names are printed and address noise draws: no control characters, at most 120 characters. */
function cleanName(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, 120) || '(unnamed)';
}

function playerName(owned: readonly BaseTurn[], kind: PlayersKind): string {
  if (kind === 'agents') return cleanName(owned[0].agent);
  const first = owned[0];
  return cleanName(`${first.step} ${first.kind === 'model' ? first.agent : (first.call?.name ?? first.name)}`);
}

/** A run's plan. Throws ReplayPlanError naming the run, turn or fix. */
export function planRun(run: RecordedRun, options: PlanOptions): ReplayRunData {
  const base = baseTurns(run);
  if (base.turns.length === 0) throw new ReplayPlanError(`run "${run.id}" has no model or tool calls to replay`);
  const fixes = fixesOf(run, base, options);
  const { player, owners } = playersOf(base.turns, fixes, options.players);
  let segment = 0;
  let interleaved = false;
  const turns: ReplayTurn[] = base.turns.map((t) => {
    segment = Math.max(segment, player[t.index]);
    if (player[t.index] >= 0 && player[t.index] !== segment) interleaved = true;
    return { ...t, fixes: fixes[t.index], player: player[t.index], segment };
  });
  const expected = run.expected;
  return {
    id: run.id,
    ...(run.name !== run.id && run.name !== '' && { name: run.name }),
    task: taskOf(run, base),
    ...(expected !== undefined && { expected }),
    players: owners.map((o) => playerName(o, options.players)),
    transcript: base.transcript,
    messages: base.messages,
    toolSets: base.toolSets,
    turns,
    interleaved,
  };
}
