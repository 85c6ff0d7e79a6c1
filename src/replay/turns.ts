/**
 * A recorded run linearised into turns (docs/replay.md, "Turns"): model calls (the leaf model step
 * of a wrapped call, never the wrapper), tool calls, and Who&When-style agent entries (a terminal
 * entry is a tool turn). A model turn's context is its recorded request where the format keeps
 * one, else the transcript before it with each speaker's name in front of what it said.
 */
import type { LlmMessage } from '../engine/types.ts';
import { callText, nativeMessages, readStepMessages, recordedParams, recordedTools, sameContent, wireArguments, type RecordedRun, type RecordedStep } from '../runs/index.ts';
import { transcriptMessages } from './rule.ts';
import { findSubstitutions } from './substitutions.ts';
import type { ReplayRunData, ReplayTurn, Substitution, ToolCall, TranscriptEntry } from './types.ts';

/** A turn before its fixes and player are known. */
export type BaseTurn = Omit<ReplayTurn, 'fixes' | 'player' | 'segment'>;

function hasDescendant(steps: readonly RecordedStep[], i: number, test: (s: RecordedStep) => boolean): boolean {
  // Steps are in execution order, parents first: the subtree is the run of deeper steps after i.
  for (let j = i + 1; j < steps.length && steps[j].depth > steps[i].depth; j++) if (test(steps[j])) return true;
  return false;
}

function isTurn(steps: readonly RecordedStep[], i: number): 'model' | 'tool' | null {
  const s = steps[i];
  if (s.kind === 'llm') return hasDescendant(steps, i, (d) => d.kind === 'llm') ? null : 'model';
  if (s.kind === 'tool') return hasDescendant(steps, i, (d) => d.kind === 'tool' || d.kind === 'llm') ? null : 'tool';
  // An agent entry with nothing under it is one message of that agent (Who&When).
  if (s.kind === 'agent' && s.output && !hasDescendant(steps, i, () => true)) return 'model';
  return null;
}

function agentOf(steps: readonly RecordedStep[], byId: ReadonlyMap<string, RecordedStep>, i: number): string {
  if (steps[i].agent) return steps[i].agent!;
  for (let p = steps[i].parent ? byId.get(steps[i].parent!) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined) {
    if (p.agent) return p.agent;
    if (p.kind === 'agent') return p.name;
  }
  return steps[i].name;
}

function outputOf(step: RecordedStep): { text: string; toolCalls?: ToolCall[] } {
  const messages = readStepMessages(step, 'output');
  const text = messages.map((m) => m.text).filter((t) => t !== '').join('\n');
  const calls = messages.flatMap((m) => m.toolCalls ?? []).map((c): ToolCall => ({ ...(c.id !== undefined && c.id !== '' && { id: c.id }), name: c.name, arguments: wireArguments(c.arguments) }));
  return calls.length > 0 ? { text, toolCalls: calls } : { text };
}

/** The id of the call a tool step answers, where the format records it (runtape `call_id`, OTel `gen_ai.tool.call.id`). */
function toolCallIdOf(step: RecordedStep): string | undefined {
  for (const key of ['call_id', 'gen_ai.tool.call.id', 'tool_call_id', 'tool_call.id', 'toolCallId']) {
    const v = step.attributes[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** A turn's name: `agent · model` for a model turn (the agent alone when no model is recorded), `tool NAME` for a tool turn. */
function turnName(kind: 'model' | 'tool', step: RecordedStep, agent: string): string {
  if (kind === 'tool') return `tool ${step.name}`;
  return step.model && step.model !== agent ? `${agent} · ${step.model}` : agent;
}

/**
 * Where earlier turns' outputs sit in a native context, by structure first: a tool message is the
 * tool turn whose call it answers (by id, when its result is the same) or whose result it holds
 * (the same text or JSON value); an assistant's tool call is an earlier model turn's call with the
 * same id, or the same name and JSON arguments. The rest is found verbatim (substitutions.ts).
 */
function structuralSubstitutions(context: readonly LlmMessage[], turns: readonly BaseTurn[]): Substitution[] {
  const found: Substitution[] = [];
  const byCallId = new Map<string, number>();
  for (const t of turns) if (t.kind === 'tool' && t.call?.id !== undefined) byCallId.set(t.call.id, t.index);
  // Messages matched whole are left out of the verbatim search (their text is that turn's).
  const verbatim: LlmMessage[] = context.map((m) => ({ role: m.role, content: m.content }));
  context.forEach((m, i) => {
    if (m.role === 'tool') {
      const byId = m.tool_call_id !== undefined ? byCallId.get(m.tool_call_id) : undefined;
      const from = byId !== undefined && sameContent(turns[byId].output, m.content) ? byId : ([...turns].reverse().find((t) => t.kind === 'tool' && t.output.trim() !== '' && sameContent(t.output, m.content))?.index ?? byId);
      if (from !== undefined) {
        found.push({ message: i, start: 0, end: m.content.length, from });
        verbatim[i] = { role: m.role, content: '' };
      }
    }
    (m.tool_calls ?? []).forEach((call, k) => {
      for (let j = turns.length - 1; j >= 0; j--) {
        const calls = turns[j].kind === 'model' ? (turns[j].toolCalls ?? []) : [];
        const c = calls.findIndex((r) => (r.id !== undefined && r.id === call.id) || (r.name === call.function.name && sameContent(r.arguments, call.function.arguments)));
        if (c >= 0) {
          found.push({ message: i, start: 0, end: 0, from: j, call: k, fromCall: c });
          return;
        }
      }
    });
  });
  return [...found, ...findSubstitutions(verbatim, turns)].sort((a, b) => a.message - b.message || a.start - b.start || (a.call ?? -1) - (b.call ?? -1));
}

/** A model turn's recorded context: its request, or the transcript before it. */
export function recordedContext(turn: Pick<ReplayTurn, 'context' | 'transcript' | 'agent'>, run: Pick<ReplayRunData, 'task' | 'transcript'>): LlmMessage[] {
  return turn.transcript === undefined ? turn.context : transcriptMessages(turn.agent, run.task, run.transcript, turn.transcript, (e) => e.text);
}

/** How many places of a turn's context hold an earlier turn's output. */
export function substitutionCount(turn: Pick<ReplayTurn, 'substitutions' | 'transcript'>, transcript: readonly TranscriptEntry[]): number {
  return turn.transcript === undefined ? turn.substitutions.length : transcript.slice(0, turn.transcript).filter((e) => e.turn !== null && e.text !== '').length;
}

/** The turns of a run, in execution order, with their contexts and what each quotes of the earlier ones, and the run's transcript. */
export function baseTurns(run: RecordedRun): BaseTurn[] & { transcript: TranscriptEntry[] } {
  const steps = run.steps;
  const byId = new Map(steps.map((s) => [s.id, s]));
  const turns: BaseTurn[] = [];
  // The transcript so far (every step with output, turns or not), for formats without requests.
  const transcript: TranscriptEntry[] = [];
  for (let i = 0; i < steps.length; i++) {
    const kind = isTurn(steps, i);
    const step = steps[i];
    const out = outputOf(step);
    if (kind === null) {
      if (step.kind === 'other' && out.text !== '') transcript.push({ speaker: agentOf(steps, byId, i), text: out.text, turn: null });
      continue;
    }
    const agent = agentOf(steps, byId, i);
    const index = turns.length;
    if (kind === 'tool') {
      // The call it answers: by the recorded call id where there is one, else the latest model turn's next call.
      const callId = toolCallIdOf(step);
      const byId = callId !== undefined ? [...turns].reverse().find((t) => t.kind === 'model' && t.toolCalls?.some((c) => c.id === callId)) : undefined;
      const caller = byId ?? [...turns].reverse().find((t) => t.kind === 'model');
      const callIndex = byId ? byId.toolCalls!.findIndex((c) => c.id === callId) : caller?.toolCalls ? turns.filter((t) => t.kind === 'tool' && t.caller === caller.index).length : null;
      const input = readStepMessages(step, 'input').map((m) => m.text).join('\n');
      const recordedCall = caller?.toolCalls && callIndex !== null ? caller.toolCalls[callIndex] : undefined;
      const call: ToolCall = recordedCall ?? { ...(callId !== undefined && { id: callId }), name: step.name, arguments: callIndex === null && caller ? caller.output : input };
      turns.push({ index, step: i, name: turnName('tool', step, agent), agent, kind: 'tool', context: [], output: out.text, caller: caller?.index ?? -1, callIndex: recordedCall ? callIndex : null, call, substitutions: [], dependsOn: caller ? [caller.index] : [] });
      transcript.push({ speaker: agent, text: out.text, turn: index });
      continue;
    }
    const recorded = readStepMessages(step, 'input');
    let context: LlmMessage[] = [];
    let substitutions: Substitution[] = [];
    let dependsOn: number[];
    if (recorded.length > 0) {
      context = nativeMessages(recorded);
      substitutions = structuralSubstitutions(context, turns);
      dependsOn = [...new Set(substitutions.map((s) => s.from))].sort((a, b) => a - b);
    } else {
      // The transcript with the speakers named: every earlier turn's words are in it, at a known place.
      dependsOn = transcript.filter((e) => e.turn !== null && e.text !== '').map((e) => e.turn!);
    }
    const tools = recordedTools(step);
    const params = recordedParams(step);
    turns.push({
      index,
      step: i,
      name: turnName('model', step, agent),
      agent,
      kind: 'model',
      context,
      ...(recorded.length === 0 && { transcript: transcript.length }),
      output: out.text,
      ...(out.toolCalls && { toolCalls: out.toolCalls }),
      ...(tools && { tools }),
      ...params,
      substitutions,
      dependsOn,
    });
    transcript.push({ speaker: agent, text: out.toolCalls ? [out.text, ...out.toolCalls.map(callText)].filter((t) => t !== '').join('\n') : out.text, turn: out.toolCalls ? null : index });
  }
  return Object.assign(turns, { transcript });
}

/** The task of a run: what the format records as its question, else the first user message of the first turn. */
export function taskOf(run: RecordedRun, turns: readonly BaseTurn[]): string {
  if (run.task) return run.task;
  const first = turns.find((t) => t.kind === 'model');
  if (first?.transcript !== undefined) return (turns as { transcript?: TranscriptEntry[] }).transcript?.find((e) => e.turn === null)?.text ?? '';
  return first?.context.find((m) => m.role === 'user')?.content ?? '';
}
