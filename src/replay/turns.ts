/**
 * A recorded run linearised into turns (docs/replay.md, "Turns"): model calls (the leaf model step
 * of a wrapped call, never the wrapper), tool calls, and Who&When-style agent entries (a terminal
 * entry is a tool turn). A model turn's context is its recorded request where the format keeps
 * one, else the transcript before it with each speaker's name in front of what it said.
 */
import type { LlmMessage } from '../engine/types.ts';
import { readStepMessages, type ChatMessage, type RecordedRun, type RecordedStep } from '../runs/index.ts';
import { transcriptMessages } from './rule.ts';
import { findSubstitutions } from './substitutions.ts';
import type { ReplayRunData, ReplayTurn, Substitution, ToolCall, TranscriptEntry } from './types.ts';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

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

function callText(call: { name: string; arguments: string }): string {
  return `[tool call] ${call.name}(${call.arguments})`;
}

/** A recorded message as a chat message the model host sends: tool calls written out in the text. */
function toLlmMessage(m: ChatMessage): LlmMessage {
  const role = m.role === 'developer' ? 'system' : ROLES.has(m.role) ? (m.role as LlmMessage['role']) : 'user';
  const parts = [m.text, ...(m.toolCalls ?? []).map(callText)].filter((p) => p !== '');
  // A tool message without the call id it answers would be refused by most endpoints: it travels as a user message.
  if (role === 'tool') return { role: 'user', content: `[tool result] ${parts.join('\n')}` };
  return { role, content: parts.join('\n') };
}

function outputOf(step: RecordedStep): { text: string; toolCalls?: ToolCall[] } {
  const messages = readStepMessages(step, 'output');
  const text = messages.map((m) => m.text).filter((t) => t !== '').join('\n');
  const calls = messages.flatMap((m) => m.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.arguments }));
  return calls.length > 0 ? { text, toolCalls: calls } : { text };
}

function recordedTools(step: RecordedStep): unknown[] | undefined {
  const a = step.attributes;
  for (const key of ['gen_ai.request.tools', 'gen_ai.tool.definitions', 'llm.tools', 'tools']) {
    let v = a[key];
    if (typeof v === 'string') {
      try {
        v = JSON.parse(v);
      } catch {
        continue;
      }
    }
    if (Array.isArray(v) && v.length > 0) return v;
  }
  return undefined;
}

function recordedTemperature(step: RecordedStep): number | undefined {
  for (const key of ['gen_ai.request.temperature', 'llm.invocation_parameters.temperature', 'temperature']) {
    const v = step.attributes[key];
    const x = typeof v === 'string' ? Number(v) : v;
    if (typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 2) return x;
  }
  return undefined;
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
      const caller = [...turns].reverse().find((t) => t.kind === 'model');
      const callIndex = caller?.toolCalls ? turns.filter((t) => t.kind === 'tool' && t.caller === caller.index).length : null;
      const input = readStepMessages(step, 'input').map((m) => m.text).join('\n');
      const recordedCall = caller?.toolCalls && callIndex !== null ? caller.toolCalls[callIndex] : undefined;
      const call: ToolCall = recordedCall ?? { name: step.name, arguments: callIndex === null && caller ? caller.output : input };
      turns.push({ index, step: i, name: step.name, agent, kind: 'tool', context: [], output: out.text, caller: caller?.index ?? -1, callIndex: recordedCall ? callIndex : null, call, substitutions: [], dependsOn: caller ? [caller.index] : [] });
      transcript.push({ speaker: agent, text: out.text, turn: index });
      continue;
    }
    const recorded = readStepMessages(step, 'input');
    let context: LlmMessage[] = [];
    let substitutions: Substitution[] = [];
    let dependsOn: number[];
    if (recorded.length > 0) {
      context = recorded.map(toLlmMessage);
      substitutions = findSubstitutions(context, turns);
      dependsOn = [...new Set(substitutions.map((s) => s.from))].sort((a, b) => a - b);
    } else {
      // The transcript with the speakers named: every earlier turn's words are in it, at a known place.
      dependsOn = transcript.filter((e) => e.turn !== null && e.text !== '').map((e) => e.turn!);
    }
    const tools = recordedTools(step);
    const temperature = recordedTemperature(step);
    turns.push({
      index,
      step: i,
      name: step.name,
      agent,
      kind: 'model',
      context,
      ...(recorded.length === 0 && { transcript: transcript.length }),
      output: out.text,
      ...(out.toolCalls && { toolCalls: out.toolCalls }),
      ...(tools && { tools }),
      ...(temperature !== undefined && { temperature }),
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
