/**
 * The recorded run beside one coalition's replay, turn by turn (the Replay view's "Recorded beside
 * replayed"): what each turn answered (text and tool calls) and, for a model turn, the request it
 * sent, as recorded and as replayed with that coalition's players fixed.
 *
 * The replayed outputs are the coalition's step outputs as the analysis kept them (a result's
 * `fixedOutputs`, `repairedOutputs`: untrusted, read field by field). The replayed request is
 * rebuilt by the replay rule itself (rule.ts), given those outputs: the same function that built
 * the request the model answered, so what is shown is what was sent.
 */
import type { LlmChatArgs, LlmMessage } from '../engine/types.ts';
import { replayModelTurn, replayState, sameArguments, sameCalls, type Replayed, type ReplayedTurn } from './rule.ts';
import { recordedContext } from './turns.ts';
import type { ReplayRunData, ReplayTurn, ToolCall } from './types.ts';

const VIAS: readonly ReplayedTurn['via'][] = ['recorded', 'model', 'action', 'observation', 'stub', 'reused', 'absent', 'waiting'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One side of a turn: its answer (a tool turn: its result), its tool calls, and (a tool turn) its call. */
export interface TurnSide {
  text: string;
  toolCalls: ToolCall[];
  /** Tool turns: the call it ran (absent: the replayed model no longer makes it). */
  call?: ToolCall;
}

export interface TurnComparison {
  index: number;
  step: number;
  name: string;
  agent: string;
  kind: 'model' | 'tool';
  /** Whether its player is fixed in the coalition. */
  fixed: boolean;
  recorded: TurnSide;
  /** Null when the analysis did not keep this turn's replayed output (an output cut for size). */
  replayed: TurnSide | null;
  /** Where the replayed output came from (docs/replay.md, "Replay rule"); null when not kept. */
  via: ReplayedTurn['via'] | null;
  /** The answer, result or tool calls differ from the record. */
  outputChanged: boolean;
  /**
   * The request differs from the record (a model turn sent to the model: its context changed, or
   * its fix asks again), or the call (a tool turn's).
   */
  inputChanged: boolean;
  /**
   * A model turn sent to the model: its request's messages as recorded and as sent (null: none
   * sent). Built when asked, as a long run's requests repeat its whole conversation.
   */
  request: (() => RequestPair) | null;
}

export interface RequestPair {
  recorded: LlmMessage[];
  replayed: LlmMessage[] | null;
}

function toolCallOf(value: unknown): ToolCall | null {
  if (!isObject(value) || typeof value.name !== 'string' || typeof value.arguments !== 'string') return null;
  const call: ToolCall = { name: value.name, arguments: value.arguments };
  if (typeof value.id === 'string') call.id = value.id;
  return call;
}

function replayedTurnOf(value: unknown): ReplayedTurn | null {
  if (!isObject(value) || typeof value.text !== 'string' || typeof value.changed !== 'boolean' || !VIAS.includes(value.via as ReplayedTurn['via'])) return null;
  const out: ReplayedTurn = { text: value.text, changed: value.changed, via: value.via as ReplayedTurn['via'] };
  if (value.toolCalls !== undefined) {
    if (!Array.isArray(value.toolCalls)) return null;
    const calls = value.toolCalls.map(toolCallOf);
    if (calls.some((c) => c === null)) return null;
    out.toolCalls = calls as ToolCall[];
  }
  return out;
}

/**
 * Every turn's replayed output in a coalition's step outputs (steps in the definition's order;
 * each holds the turns of its segment). A step whose output was not kept (cut for size) or is not
 * a segment's output leaves its turns out; so does any turn whose entry is not a replayed turn.
 */
export function replayedOutputs(run: ReplayRunData, steps: readonly string[], outputs: Readonly<Record<string, unknown>>): Replayed {
  const replayed: Replayed = {};
  for (const name of steps) {
    const out = Object.hasOwn(outputs, name) ? outputs[name] : undefined;
    if (!isObject(out) || !isObject(out.turns)) continue;
    for (const [key, value] of Object.entries(out.turns)) {
      const at = /^\d+$/.test(key) ? Number(key) : -1;
      const turn = at >= 0 && at < run.turns.length ? replayedTurnOf(value) : null;
      if (turn) replayed[at] = turn;
    }
  }
  return replayed;
}

/** The call a tool turn ran in the replay (undefined: its caller no longer makes it), as the rule works it out. */
function replayedCall(turn: ReplayTurn, replayed: Replayed): ToolCall | undefined {
  const recorded = turn.call as ToolCall;
  const caller = turn.caller !== undefined && turn.caller >= 0 ? replayed[turn.caller] : undefined;
  if (caller === undefined || !caller.changed) return recorded;
  if (turn.callIndex === null || turn.callIndex === undefined) return { name: recorded.name, arguments: caller.text };
  return caller.toolCalls?.[turn.callIndex];
}

/**
 * Turn by turn, the record beside the replay of the coalition whose players (definition step
 * indices) are `fixed`, from that coalition's step outputs.
 */
export function compareReplay(run: ReplayRunData, steps: readonly string[], outputs: Readonly<Record<string, unknown>>, fixed: ReadonlySet<number>): TurnComparison[] {
  const replayed = replayedOutputs(run, steps, outputs);
  const state = replayState(run, replayed);
  return run.turns.map((turn): TurnComparison => {
    const isFixed = turn.player >= 0 && fixed.has(turn.player);
    const recorded: TurnSide = { text: turn.output, toolCalls: turn.toolCalls ?? [] };
    if (turn.kind === 'tool') recorded.call = turn.call;
    const base = { index: turn.index, step: turn.step, name: turn.name, agent: turn.agent, kind: turn.kind, fixed: isFixed, recorded };
    const now = replayed[turn.index];
    if (now === undefined) return { ...base, replayed: null, via: null, outputChanged: false, inputChanged: false, request: null };
    const side: TurnSide = { text: now.text, toolCalls: now.toolCalls ?? [] };
    let inputChanged: boolean;
    let request: TurnComparison['request'] = null;
    if (turn.kind === 'model') {
      // The rule sends a model turn only when its context changed or its fix asks again (kept as recorded otherwise; an action sends nothing).
      inputChanged = now.via === 'model';
      if (inputChanged) request = () => ({ recorded: recordedContext(turn, run), replayed: requestOf(state, turn, isFixed ? turn.fixes : [], now) });
    } else {
      const call = now.via === 'absent' ? undefined : replayedCall(turn, replayed);
      if (call !== undefined) side.call = call;
      inputChanged = call === undefined || call.name !== turn.call!.name || !sameArguments(call.arguments, turn.call!.arguments);
    }
    const outputChanged = now.via === 'absent' || now.text !== turn.output || !sameCalls(now.toolCalls, turn.toolCalls);
    return { ...base, replayed: side, via: now.via, outputChanged, inputChanged, request };
  });
}

/**
 * The messages the replay sent for a model turn: the rule's own request, caught as it is made (the
 * answer given back is the one kept); null when it sent nothing (an `action` fix).
 */
function requestOf(state: ReturnType<typeof replayState>, turn: ReplayTurn, fixes: ReplayTurn['fixes'], now: ReplayedTurn): LlmMessage[] | null {
  if (now.via === 'action') return null;
  let sent: LlmChatArgs | null = null;
  replayModelTurn(state, turn, fixes, {
    chat(args) {
      sent = args;
      return { text: now.text, finish: 'stop', usage: { input: 0, output: 0 }, ...(now.toolCalls && { toolCalls: now.toolCalls }) };
    },
    choose() {
      throw new Error('a replayed turn makes no choice');
    },
  });
  const args = sent as LlmChatArgs | null;
  return args !== null ? [...args.messages] : null;
}
