/**
 * RecordedRun (docs/recorded-runs.md): one model for the traces real agents write (OpenTelemetry GenAI,
 * OpenInference, Langfuse, LangSmith, runtape, Who&When...). Plain data only, so a run can be
 * posted to a worker or stored as it is. Messages stay in their recorded form (`MessageSource`)
 * and are parsed only when a view asks for them (`readStepMessages`).
 */

export type StepKind = 'llm' | 'tool' | 'agent' | 'chain' | 'retriever' | 'other';
export type RunStatus = 'ok' | 'error' | 'unknown';

export interface TokenUsage {
  input: number;
  output: number;
}

/**
 * Messages as recorded, parsed on demand:
 * - `value`: a JSON string or parsed JSON (OTel `parts` messages, OpenAI chat messages, Responses
 *   items, LangSmith inputs/outputs) or plain text; `role` names the speaker of plain text.
 * - `flat`: messages flattened into the step's attributes under `prefix`
 *   (`llm.input_messages.0.message.role`, `gen_ai.prompt.0.content`).
 */
export type MessageSource =
  | { form: 'value'; value: unknown; role?: string }
  | { form: 'flat'; scheme: 'openinference' | 'genai'; prefix: string };

/** One step as an importer reads it, before the tree is built. */
export interface StepDraft {
  id: string;
  /** The parent's id as recorded (it may be missing from the file, or form a cycle). */
  parent: string | null;
  name: string;
  kind: StepKind;
  /** Epoch milliseconds (fractions keep µs), null when the format records no time. */
  start: number | null;
  end: number | null;
  model: string | null;
  usage: TokenUsage | null;
  error: string | null;
  /** The agent that acted (Who&When speaker, gen_ai.agent.name), when recorded. */
  agent?: string;
  /** Explicit order where the format has one (runtape event id, Who&When turn, LangSmith dotted order). */
  order?: number;
  input?: MessageSource;
  output?: MessageSource;
  /** The step's recorded attributes, flat, for the raw view and for `flat` messages. */
  attributes: Record<string, unknown>;
}

export interface RecordedStep extends StepDraft {
  /** Nesting depth in the built tree (0 = a root). */
  depth: number;
  /** Why `parent` was cleared: the recorded parent is not in the file, or it closed a cycle. */
  detached?: { parent: string; reason: 'missing' | 'cycle' };
  /** Tokens not counted because a model call inside this step reports them (a wrapper's estimate or sum). */
  wrappedUsage?: TokenUsage;
}

/** Ground truth of a labelled failure (Who&When): the agent and the 0-based step index. */
export interface RunLabel {
  agent: string;
  step: number;
}

export interface RecordedRun {
  id: string;
  name: string;
  status: RunStatus;
  label?: RunLabel;
  /** A subset the run belongs to (Who&When: "Algorithm-Generated" or "Hand-Crafted"). */
  group?: string;
  /** The task the run was given, where the format records it apart (Who&When `question`). */
  task?: string;
  /** The correct final answer, where the format records it (Who&When `ground_truth`). */
  expected?: string;
  /** Steps in execution order (parents before children, siblings by start, end, id). */
  steps: RecordedStep[];
}

/** What a recorded-run importer returns: the format's name and the runs in the file. */
export interface RecordedRunFile {
  format: string;
  runs: RecordedRun[];
}

/** One message, parsed, as the chat view shows it. */
export interface ChatMessage {
  role: string;
  text: string;
  name?: string;
  toolCalls?: { id?: string; name: string; arguments: string }[];
  /** The call this message answers (tool results). */
  toolCallId?: string;
  /** True when the recorded text could not be parsed and is shown as it was. */
  raw?: boolean;
}
