/**
 * Training pairs of a replayed run (docs/repairs.md, "Training pairs"). A replay step's output is
 * the record of the turns it replayed, not text a model wrote, so the generic pairs (the step's
 * name and inputs as prompt, its outputs as JSON) teach nothing. Here each model turn of a repaired
 * player whose text the repair changed gives one record, as CausalFlow pairs a wrong step with
 * its correction: the turn's recorded context as the prompt, its recorded answer rejected and its
 * answer in the repaired run chosen.
 *
 * The run is read from the case's `recording` input, so the command (live or from a saved
 * session) and the page use one rule on the same data. That input comes from a definition or a
 * session file: it is read field by field, and anything that is not a replayed run is null.
 */
import type { AttributedCaseResult, LlmMessage } from '../engine/types.ts';
import { ownValue } from '../engine/named-record.ts';
import type { TrainingPair } from '../engine/repairs/training-pairs.ts';
import { recordedContext } from './turns.ts';
import type { ReplayTurn, TranscriptEntry, TurnContext } from './types.ts';

/** What the pair rule reads of a run: its task, transcript and context messages, and each turn's context and recorded output. */
export interface PairRun {
  task: string;
  transcript: TranscriptEntry[];
  messages: LlmMessage[];
  turns: (Pick<ReplayTurn, 'index' | 'kind' | 'player' | 'agent' | 'output' | 'context'> & { transcript?: number })[];
}

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ROLES: readonly string[] = ['system', 'user', 'assistant', 'tool'];

function messagesOf(value: unknown): LlmMessage[] | null {
  if (!Array.isArray(value)) return null;
  const out: LlmMessage[] = [];
  for (const m of value) {
    if (!isObject(m) || typeof m.role !== 'string' || !ROLES.includes(m.role) || typeof m.content !== 'string') return null;
    out.push({ role: m.role as LlmMessage['role'], content: m.content });
  }
  return out;
}

function entryOf(value: unknown): TranscriptEntry | null {
  if (!isObject(value) || typeof value.speaker !== 'string' || typeof value.text !== 'string' || !(value.turn === null || isInt(value.turn))) return null;
  return { speaker: value.speaker, text: value.text, turn: value.turn };
}

/**
 * A turn's context: by reference (an earlier turn's context, then message numbers), or, in a
 * recording made before contexts were kept by reference, the messages themselves (added to the
 * run's messages here). Null when it names what is not there.
 */
function contextOf(value: unknown, index: number, messages: LlmMessage[], turns: PairRun['turns']): TurnContext | undefined | null {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    const listed = messagesOf(value);
    if (!listed) return null;
    if (listed.length === 0) return undefined;
    const add = listed.map((m) => messages.push(m) - 1);
    return { from: -1, add };
  }
  if (!isObject(value) || !isInt(value.from) || !Array.isArray(value.add)) return null;
  const { from, add } = value;
  if (from >= index || from < -1 || (from >= 0 && turns[from]?.context === undefined)) return null;
  if (!add.every((id) => isInt(id) && id >= 0 && id < messages.length)) return null;
  return { from, add: [...(add as number[])] };
}

function turnOf(value: unknown, messages: LlmMessage[], turns: PairRun['turns']): PairRun['turns'][number] | null {
  if (!isObject(value)) return null;
  const { index, kind, player, agent, output, transcript } = value;
  if (!isInt(index) || index !== turns.length || (kind !== 'model' && kind !== 'tool') || !isInt(player) || typeof agent !== 'string' || typeof output !== 'string') return null;
  if (transcript !== undefined && !isInt(transcript)) return null;
  const context = contextOf(value.context, index, messages, turns);
  if (context === null) return null;
  return { index, kind, player, agent, output, ...(context && { context }), ...(transcript !== undefined && { transcript }) };
}

/** The replayed run a case's `recording` input holds, or null when it holds none. */
export function pairRunOf(recording: unknown): PairRun | null {
  if (!isObject(recording) || typeof recording.task !== 'string' || !Array.isArray(recording.transcript) || !Array.isArray(recording.turns)) return null;
  const transcript: TranscriptEntry[] = [];
  for (const raw of recording.transcript) {
    const entry = entryOf(raw);
    if (!entry) return null;
    transcript.push(entry);
  }
  const messages: LlmMessage[] = [];
  if (recording.messages !== undefined) {
    const listed = messagesOf(recording.messages);
    if (!listed) return null;
    messages.push(...listed);
  }
  const turns: PairRun['turns'] = [];
  for (const raw of recording.turns) {
    const turn = turnOf(raw, messages, turns);
    if (!turn) return null;
    turns.push(turn);
  }
  return { task: recording.task, transcript, messages, turns };
}

/** What a replay step outputs: per turn index, the text it ended with. */
function turnTexts(output: unknown): Map<number, string> {
  const out = new Map<number, string>();
  const turns = isObject(output) ? output.turns : undefined;
  if (!isObject(turns)) return out;
  for (const [index, turn] of Object.entries(turns)) {
    const text = isObject(turn) ? turn.text : undefined;
    if (typeof text === 'string') out.set(Number(index), text);
  }
  return out;
}

/**
 * The pairs of one repaired case of a replay, or null when the case's inputs hold no replayed run
 * (then the generic rule applies). A step's player is its position among the result's players,
 * as the replay definition numbers its steps.
 */
export function replayPairs(caseInputs: Readonly<Record<string, unknown>>, r: AttributedCaseResult, fixOf: (step: string) => string | null): TrainingPair[] | null {
  const run = pairRunOf(ownValue(caseInputs, 'recording'));
  if (!run) return null;
  const repair = r.repairs?.[0];
  const after = r.repairedOutputs;
  if (!repair || !after) return [];
  const out: TrainingPair[] = [];
  for (const step of repair.fixed) {
    const player = r.players.indexOf(step);
    if (player < 0 || !Object.hasOwn(after, step)) continue;
    const repaired = turnTexts(ownValue(after, step));
    for (const turn of run.turns) {
      if (turn.kind !== 'model' || turn.player !== player) continue;
      const chosen = repaired.get(turn.index);
      const rejected = turn.output;
      const prompt = recordedContext(turn, run);
      if (chosen === undefined || chosen === '' || rejected === '' || chosen === rejected || prompt.length === 0) continue;
      out.push({ prompt, chosen, rejected, case: r.id, step, fix: fixOf(step), before: r.vEmpty, after: repair.value, shapley: ownValue(r.shapley, step) ?? 0 });
    }
  }
  return out;
}
