/**
 * A recorded run as a replay (docs/replay.md): the run linearised into turns, each with the
 * context it saw and the output it recorded, the interventions that stand for its fix, and the
 * player it belongs to. Plain data: it is embedded in the generated definition as its case input.
 */
import type { LlmMessage } from '../engine/types.ts';

export type PlayersKind = 'steps' | 'turns' | 'agents';
export const PLAYERS_KINDS: readonly PlayersKind[] = ['steps', 'turns', 'agents'];

/** One intervention of Causal Agent Replay's algebra (see interventions.ts for the spelling). */
export type Intervention =
  | { kind: 'resample' }
  | { kind: 'action'; text: string }
  | { kind: 'observation'; text: string }
  | { kind: 'context'; op: 'system+='; text: string }
  | { kind: 'context'; op: 'drop'; index: number }
  | { kind: 'context'; op: 'replace'; index: number; text: string }
  | { kind: 'policy'; alias: string; temperature?: number }
  | { kind: 'repair'; hint?: string }
  /** A tool turn whose fix is its `--tools` stub. */
  | { kind: 'stub' };

export interface ToolCall {
  /** The call's id, as recorded (or as the endpoint gave it); a tool result names it. */
  id?: string;
  name: string;
  /** JSON text. */
  arguments: string;
}

/**
 * Where an earlier turn's recorded output sits in a context message: characters [start, end) of
 * its content, or, with `call`, the message's tool call `call`, which is turn `from`'s tool call
 * `fromCall`. At replay the span (the call) is replaced by that turn's replayed output (its
 * replayed call; a call it no longer makes is left out, with the results that answer it).
 */
export interface Quote {
  start: number;
  end: number;
  from: number;
  call?: number;
  fromCall?: number;
}

/** One distinct message of the run's recorded contexts, with the earlier outputs it quotes. */
export interface ContextMessage extends LlmMessage {
  quotes?: Quote[];
}

/**
 * A model turn's recorded context by reference: the recorded context of turn `from` (-1: none),
 * then the run's messages numbered `add`. Each distinct message is kept once in the run and a
 * context that continues an earlier one names it, so a run's data grows with its length, not with
 * the sum of its contexts.
 */
export interface TurnContext {
  from: number;
  add: number[];
}

export interface ReplayTurn {
  /** Position among the turns (0-based). */
  index: number;
  /** The recorded step it comes from, as `--inspect` numbers steps. */
  step: number;
  name: string;
  agent: string;
  kind: 'model' | 'tool';
  /** Model turns with a recorded request: its messages, by reference (see TurnContext). */
  context?: TurnContext;
  /**
   * Model turns of formats without requests (Who&When): the context is the run's transcript up to
   * this many entries, with this turn's agent as the speaker (see transcriptMessages in rule.ts). Kept as a
   * count, not copied into every turn, so a run's data grows with its length, not its square.
   */
  transcript?: number;
  /** The recorded output text (a tool turn: its result). */
  output: string;
  /** Model turns: the tool calls it recorded. */
  toolCalls?: ToolCall[];
  /** Model turns: the function definitions recorded with the request (the run's `toolSets`, by number). */
  tools?: number;
  /** Model turns: the recorded sampling parameters, when the format has them (sent as recorded). */
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
  /** Tool turns: the model turn that made the call (-1: none recorded before it). */
  caller?: number;
  /** Tool turns: which of the caller's tool calls this is (null: the caller's text is the call, as Who&When's terminal runs the code in the message before it). */
  callIndex?: number | null;
  /** Tool turns: the recorded call. */
  call?: ToolCall;
  /** Interventions applied when this turn's player is fixed ([] = none: replayed by the rule). */
  fixes: Intervention[];
  /** The player (0-based) this turn belongs to; -1 when it is no player's (a tool turn without a fix). */
  player: number;
  /** The definition step that replays it (the largest player index up to this turn, at least 0). */
  segment: number;
}

/** One entry of a run's transcript: who said what, and the turn it is (null: no turn, e.g. the human's question). */
export interface TranscriptEntry {
  speaker: string;
  text: string;
  turn: number | null;
}

/** One run as the replay definition's case input. */
export interface ReplayRunData {
  id: string;
  /** The run's name as recorded (the Replay view's title); absent in definitions made before it was kept. */
  name?: string;
  /** Every recorded output in order, for contexts built from the transcript. */
  transcript: TranscriptEntry[];
  /** Each distinct message of the recorded requests once (turns' contexts name them). */
  messages: ContextMessage[];
  /** Each distinct list of function definitions recorded with a request, once. */
  toolSets: unknown[][];
  task: string;
  expected?: string;
  players: string[];
  turns: ReplayTurn[];
  /** True when a step replays turns of an earlier player (agents): outputs then carry `fixed`. */
  interleaved: boolean;
  /** Contrast replays (--contrast): every model turn from this index on is resampled, whatever the players. */
  regenerateFrom?: number;
}

/** How success is decided: the final answer contains/matches, a model judge, or a metric file. */
export type Outcome =
  /** text null: each run's recorded correct answer (Who&When ground_truth). */
  | { kind: 'expect'; text: string | null }
  | { kind: 'expect-regex'; source: string; flags: string }
  | { kind: 'judge'; rubric: string }
  | { kind: 'metric'; source: string; fileName: string };
