/**
 * A recorded run linearised into turns (docs/replay.md, "Turns"): model calls (the leaf model step
 * of a wrapped call, never the wrapper), tool calls, and Who&When-style agent entries (a terminal
 * entry is a tool turn). A model turn's context is its recorded request where the format keeps
 * one, else the transcript before it with each speaker's name in front of what it said.
 */
import type { LlmMessage } from '../engine/types.ts';
import { callText, nativeMessages, readStepMessages, recordedParams, recordedTools, sameContent, wireArguments, type RecordedRun, type RecordedStep } from '../runs/index.ts';
import { transcriptMessages } from './rule.ts';
import { findQuotes } from './substitutions.ts';
import type { ContextMessage, Quote, ReplayRunData, ReplayTurn, ToolCall, TranscriptEntry, TurnContext } from './types.ts';

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

/** The agent a step acts for: its own or an ancestor's recorded agent, else the nearest agent step's name; null when the trace names none. */
function recordedAgentOf(steps: readonly RecordedStep[], byId: ReadonlyMap<string, RecordedStep>, i: number): string | null {
  if (steps[i].agent) return steps[i].agent!;
  for (let p = steps[i].parent ? byId.get(steps[i].parent!) : undefined; p; p = p.parent ? byId.get(p.parent) : undefined) {
    if (p.agent) return p.agent;
    if (p.kind === 'agent') return p.name;
  }
  return null;
}

/** The agent a step is grouped under (players by agent, transcript speakers): the recorded agent, else the step's own name. */
function agentOf(steps: readonly RecordedStep[], byId: ReadonlyMap<string, RecordedStep>, i: number): string {
  return recordedAgentOf(steps, byId, i) ?? steps[i].name;
}

function outputOf(step: RecordedStep): { text: string; toolCalls?: ToolCall[] } {
  const messages = readStepMessages(step, 'output');
  const text = messages.map((m) => m.text).filter((t) => t !== '').join('\n');
  const calls = messages.flatMap((m) => m.toolCalls ?? []).map((c): ToolCall => ({ ...(c.id !== undefined && c.id !== '' && { id: c.id }), name: c.name, arguments: wireArguments(c.arguments) }));
  return calls.length > 0 ? { text, toolCalls: calls } : { text };
}

/**
 * Where a model turn's call is recorded: the turn's own step, else the nearest model-call
 * ancestor that recorded it. Wrappers record the request and answer one level up from the
 * provider span they open (agno's `OpenAIChat.invoke` over `chat gpt-4o-mini`, the Vercel AI SDK's
 * `ai.generateText` over `doGenerate`); only model-call ancestors count, so an agent's own input
 * never becomes a request.
 */
function recordedCallOf<T>(steps: readonly RecordedStep[], byId: ReadonlyMap<string, RecordedStep>, i: number, read: (s: RecordedStep) => T | null): { step: RecordedStep; value: T } | null {
  const own = read(steps[i]);
  if (own !== null) return { step: steps[i], value: own };
  for (let p = steps[i].parent ? byId.get(steps[i].parent!) : undefined; p && p.kind === 'llm'; p = p.parent ? byId.get(p.parent) : undefined) {
    const value = read(p);
    if (value !== null) return { step: p, value };
  }
  return null;
}

const requestOf = (s: RecordedStep) => { const m = readStepMessages(s, 'input'); return m.length > 0 ? m : null; };
const answerOf = (s: RecordedStep) => { const o = outputOf(s); return o.text !== '' || o.toolCalls !== undefined ? o : null; };

/** The id of the call a tool step answers, where the format records it (runtape `call_id`, OTel `gen_ai.tool.call.id`). */
function toolCallIdOf(step: RecordedStep): string | undefined {
  for (const key of ['call_id', 'gen_ai.tool.call.id', 'tool_call_id', 'tool_call.id', 'toolCallId']) {
    const v = step.attributes[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/**
 * A turn's name: `agent · model` for a model turn (the agent alone when no model is recorded;
 * the model alone, else the step's name, when the trace names no agent: never a span's or run's
 * name as if it were an agent), `tool NAME` for a tool turn.
 */
function turnName(kind: 'model' | 'tool', step: RecordedStep, agent: string | null): string {
  if (kind === 'tool') return `tool ${step.name}`;
  if (agent === null) return step.model || step.name;
  return step.model && step.model !== agent ? `${agent} · ${step.model}` : agent;
}

/**
 * Where earlier turns' outputs sit in one context message, by structure first: a tool message is
 * the tool turn whose call it answers (by id, when its result is the same) or whose result it
 * holds (the same text or JSON value); an assistant's tool call is an earlier model turn's call
 * with the same id, or the same name and JSON arguments. The rest is found verbatim
 * (substitutions.ts), also as compact JSON.
 */
function quotesOf(m: LlmMessage, earlier: readonly BaseTurn[]): Quote[] {
  const found: Quote[] = [];
  let whole = false;
  if (m.role === 'tool') {
    const byId = m.tool_call_id !== undefined ? [...earlier].reverse().find((t) => t.kind === 'tool' && t.call?.id === m.tool_call_id) : undefined;
    const from = byId !== undefined && sameContent(byId.output, m.content) ? byId.index : ([...earlier].reverse().find((t) => t.kind === 'tool' && t.output.trim() !== '' && sameContent(t.output, m.content))?.index ?? byId?.index);
    if (from !== undefined) {
      found.push({ start: 0, end: m.content.length, from });
      whole = true;
    }
  }
  (m.tool_calls ?? []).forEach((call, k) => {
    for (let j = earlier.length - 1; j >= 0; j--) {
      const calls = earlier[j].kind === 'model' ? (earlier[j].toolCalls ?? []) : [];
      const c = calls.findIndex((r) => (r.id !== undefined && r.id === call.id) || (r.name === call.function.name && sameContent(r.arguments, call.function.arguments)));
      if (c >= 0) {
        found.push({ start: 0, end: 0, from: j, call: k, fromCall: c });
        return;
      }
    }
  });
  return whole ? found : [...findQuotes(m.content, earlier), ...found];
}

/** What a run's turns refer to: the transcript, the distinct context messages, the turns. */
type ContextRun = Pick<ReplayRunData, 'task' | 'transcript' | 'messages'> & { turns: readonly Pick<ReplayTurn, 'context'>[] };

/** The run's message numbers of a model turn's recorded context, in order (its chain of contexts, followed back). */
export function contextIds(run: { turns: readonly Pick<ReplayTurn, 'context'>[] }, turn: Pick<ReplayTurn, 'context'>): number[] {
  const parts: number[][] = [];
  for (let c = turn.context; c !== undefined; c = c.from >= 0 ? run.turns[c.from].context : undefined) parts.push(c.add);
  return parts.reverse().flat();
}

/** A model turn's recorded context: its request, or the transcript before it. */
export function recordedContext(turn: Pick<ReplayTurn, 'context' | 'transcript' | 'agent'>, run: ContextRun): LlmMessage[] {
  if (turn.transcript !== undefined) return transcriptMessages(turn.agent, run.task, run.transcript, turn.transcript, (e) => e.text);
  return contextIds(run, turn).map((id) => {
    const { quotes: _, ...message } = run.messages[id];
    return message;
  });
}

/** A turn's links to earlier turns: the turns its context quotes (a tool turn: its caller), and how many places hold their outputs. */
export interface TurnLinks {
  dependsOn: number[];
  substitutions: number;
}

/** Every turn's links, in one pass (a context continuing an earlier one adds to that one's). */
export function turnLinks(run: Pick<ReplayRunData, 'transcript' | 'messages' | 'turns'>): TurnLinks[] {
  const out: TurnLinks[] = [];
  // Transcript contexts grow by entries: the turns quoted among the first k entries.
  const quotedUpTo: number[][] = [[]];
  for (const e of run.transcript) {
    const last = quotedUpTo[quotedUpTo.length - 1];
    quotedUpTo.push(e.turn !== null && e.text !== '' ? [...last, e.turn] : last);
  }
  const none: TurnLinks = { dependsOn: [], substitutions: 0 };
  for (const turn of run.turns) {
    if (turn.kind === 'tool') out.push(turn.caller !== undefined && turn.caller >= 0 ? { dependsOn: [turn.caller], substitutions: 0 } : none);
    else if (turn.transcript !== undefined) {
      const quoted = quotedUpTo[Math.min(turn.transcript, run.transcript.length)];
      out.push({ dependsOn: quoted, substitutions: quoted.length });
    } else if (turn.context === undefined) out.push(none);
    else {
      const base = turn.context.from >= 0 ? out[turn.context.from] : none;
      const quotes = turn.context.add.flatMap((id) => run.messages[id].quotes ?? []);
      const known = new Set(base.dependsOn);
      const added = [...new Set(quotes.map((q) => q.from).filter((from) => !known.has(from)))];
      out.push({ dependsOn: added.length > 0 ? [...base.dependsOn, ...added].sort((a, b) => a - b) : base.dependsOn, substitutions: base.substitutions + quotes.length });
    }
  }
  return out;
}

/** The turns of a run with what they refer to: its transcript, its distinct context messages and tool lists. */
export interface BaseRun {
  turns: BaseTurn[];
  transcript: TranscriptEntry[];
  messages: ContextMessage[];
  toolSets: unknown[][];
}

/** How many earlier model turns a context is compared with when looking for the one it continues. */
const CONTINUES_LOOKBACK = 8;

/**
 * Each distinct message once, numbered; each turn's context as the longest recorded context among
 * the last few model turns' that it starts with, and the messages after it. A message's quotes
 * are looked for among the turns before the first turn whose context holds it.
 */
class ContextTable {
  readonly messages: ContextMessage[] = [];
  readonly toolSets: unknown[][] = [];
  private readonly ids = new Map<string, number>();
  private readonly toolIds = new Map<string, number>();
  /** Full message numbers of each model turn's context, by turn index (while building only). */
  private readonly full = new Map<number, number[]>();

  context(index: number, recorded: readonly LlmMessage[], earlier: readonly BaseTurn[]): TurnContext {
    const ids = recorded.map((m) => {
      const key = m.tool_calls || m.tool_call_id !== undefined ? JSON.stringify(m) : m.role + '\u0000' + m.content;
      let id = this.ids.get(key);
      if (id === undefined) {
        id = this.messages.length;
        this.ids.set(key, id);
        const quotes = quotesOf(m, earlier);
        this.messages.push(quotes.length > 0 ? { ...m, quotes } : { ...m });
      }
      return id;
    });
    let from = -1;
    let length = 0;
    let looked = 0;
    for (let j = earlier.length - 1; j >= 0 && looked < CONTINUES_LOOKBACK; j--) {
      const prior = this.full.get(j);
      if (prior === undefined) continue;
      looked++;
      if (prior.length > length && prior.length <= ids.length && prior.every((id, k) => ids[k] === id)) {
        from = j;
        length = prior.length;
      }
    }
    this.full.set(index, ids);
    return { from, add: ids.slice(length) };
  }

  tools(list: unknown[]): number {
    const key = JSON.stringify(list);
    let id = this.toolIds.get(key);
    if (id === undefined) {
      id = this.toolSets.length;
      this.toolIds.set(key, id);
      this.toolSets.push(list);
    }
    return id;
  }
}

/** The turns of a run, in execution order, with their contexts (by reference), and what they refer to. */
export function baseTurns(run: RecordedRun): BaseRun {
  const steps = run.steps;
  const byId = new Map(steps.map((s) => [s.id, s]));
  const turns: BaseTurn[] = [];
  const table = new ContextTable();
  // The transcript so far (every step with output, turns or not), for formats without requests.
  const transcript: TranscriptEntry[] = [];
  let lastModel: BaseTurn | undefined;
  let callsOfLastModel = 0;
  for (let i = 0; i < steps.length; i++) {
    const kind = isTurn(steps, i);
    const step = steps[i];
    const out = outputOf(step);
    if (kind === null) {
      if (step.kind === 'other' && out.text !== '') transcript.push({ speaker: agentOf(steps, byId, i), text: out.text, turn: null });
      continue;
    }
    // Without a recorded agent, a model turn acts as its model and a tool turn as itself (a stubbed tool is then a player of its own).
    const named = recordedAgentOf(steps, byId, i);
    let agent = named ?? turnName('model', step, null);
    const index = turns.length;
    if (kind === 'tool') {
      // The call it answers: by the recorded call id where there is one, else the latest model turn's next call.
      const callId = toolCallIdOf(step);
      const byId = callId !== undefined ? [...turns].reverse().find((t) => t.kind === 'model' && t.toolCalls?.some((c) => c.id === callId)) : undefined;
      const caller = byId ?? lastModel;
      if (named === null) agent = step.name;
      const callIndex = byId ? byId.toolCalls!.findIndex((c) => c.id === callId) : caller?.toolCalls ? callsOfLastModel++ : null;
      const input = readStepMessages(step, 'input').map((m) => m.text).join('\n');
      const recordedCall = caller?.toolCalls && callIndex !== null ? caller.toolCalls[callIndex] : undefined;
      const call: ToolCall = recordedCall ?? { ...(callId !== undefined && { id: callId }), name: step.name, arguments: callIndex === null && caller ? caller.output : input };
      turns.push({ index, step: i, name: turnName('tool', step, named), agent, kind: 'tool', output: out.text, caller: caller?.index ?? -1, callIndex: recordedCall ? callIndex : null, call });
      transcript.push({ speaker: agent, text: out.text, turn: index });
      continue;
    }
    const request = recordedCallOf(steps, byId, i, requestOf);
    const recorded = request?.value ?? [];
    const tools = recordedTools(step) ?? (request && request.step !== step ? recordedTools(request.step) : undefined);
    const params = { ...(request && request.step !== step ? recordedParams(request.step) : {}), ...recordedParams(step) };
    const answer = out.text !== '' || out.toolCalls !== undefined ? out : (recordedCallOf(steps, byId, i, answerOf)?.value ?? out);
    const turn: BaseTurn = {
      index,
      step: i,
      name: turnName('model', step, named),
      agent,
      kind: 'model',
      // Without a recorded request the context is the transcript with the speakers named: every earlier turn's words are in it, at a known place.
      ...(recorded.length > 0 ? { context: table.context(index, nativeMessages(recorded), turns) } : { transcript: transcript.length }),
      output: answer.text,
      ...(answer.toolCalls && { toolCalls: answer.toolCalls }),
      ...(tools && { tools: table.tools(tools) }),
      ...params,
    };
    turns.push(turn);
    lastModel = turn;
    callsOfLastModel = 0;
    transcript.push({ speaker: agent, text: answer.toolCalls ? [answer.text, ...answer.toolCalls.map(callText)].filter((t) => t !== '').join('\n') : answer.text, turn: answer.toolCalls ? null : index });
  }
  return { turns, transcript, messages: table.messages, toolSets: table.toolSets };
}

/** The task of a run: what the format records as its question, else the first user message of the first turn. */
export function taskOf(run: RecordedRun, base: BaseRun): string {
  if (run.task) return run.task;
  const first = base.turns.find((t) => t.kind === 'model');
  if (first?.transcript !== undefined) return base.transcript.find((e) => e.turn === null)?.text ?? '';
  return first ? (recordedContext(first, { task: '', ...base }).find((m) => m.role === 'user')?.content ?? '') : '';
}
