/**
 * The replay rule (docs/replay.md, "Replay rule"), written once. TypeScript calls these functions
 * directly; every generated replay definition carries them as text (rule-source.ts, generated
 * from this file by `npm run gen:replay-rule`, checked by rule-source.test.ts), so the text that
 * definitions run is this file with its types taken out.
 *
 * That is why this file is written for the definition's sandbox: no imports but types, no module
 * state, no clock, no global randomness (a resampled turn's seed comes from the step's addressed
 * noise, through `llm.chat`'s key), and no text the sandbox refuses (a dynamic import, an eval
 * call, HTML comment markers). Each step replays the turns of its segment, in order, from the
 * turns before it (its inputs); a turn whose context is unchanged keeps its recorded output.
 */
import type { LlmChatArgs, LlmChatResult, LlmChooseArgs, LlmMessage } from '../engine/types.ts';
import type { Intervention, Quote, ReplayRunData, ReplayTurn, ToolCall, TranscriptEntry, TurnContext } from './types.ts';

/** What a replay definition declares beside the rule: its steps, how success is decided, the tool stubs and the metric file. */
export interface RuleSettings {
  steps: readonly string[];
  outcome: { kind: 'expect'; text: string | null } | { kind: 'expect-regex'; source: string; flags: string } | { kind: 'judge'; rubric: string } | { kind: 'metric' };
  tools: Readonly<Record<string, (args: unknown) => unknown>>;
  metric: ((run: { turns: { agent: string; kind: string; name: string; output: string }[]; final: string }) => number) | null;
}

/** The model calls a step may make (the sandbox's `llm`). */
export interface RuleLlm {
  chat(args: LlmChatArgs): LlmChatResult;
  choose(args: LlmChooseArgs): string;
}

/** A turn as replayed: its text and tool calls, whether they differ from the record, and where they came from. */
export interface ReplayedTurn {
  text: string;
  changed: boolean;
  via: 'recorded' | 'model' | 'action' | 'observation' | 'stub' | 'reused' | 'absent' | 'waiting';
  toolCalls?: ToolCall[];
}

export type Replayed = Record<number, ReplayedTurn>;

/** A step's output: the turns it replayed (and, when players interleave, whether its player was fixed; the judge's verdict in the last step). */
export interface SegmentOutput {
  turns: Replayed;
  fixed?: boolean;
  verdict?: string;
}

/** The same JSON value (objects' keys in any order), or the same text when either is not JSON. */
export function sameArguments(a: string, b: string): boolean {
  if (a === b) return true;
  let x: unknown;
  let y: unknown;
  try {
    x = JSON.parse(a);
    y = JSON.parse(b);
  } catch (_) {
    return a.trim() === b.trim();
  }
  return sameValue(x, y);
}

function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return false;
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.prototype.hasOwnProperty.call(b, key) || !sameValue(a[key], b[key])) return false;
  return true;
}

/** Whether two lists of tool calls make the same calls (names and JSON arguments; ids are the endpoint's and do not count). */
export function sameCalls(a: readonly ToolCall[] | undefined, b: readonly ToolCall[] | undefined): boolean {
  const x = a || [];
  const y = b || [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i].name !== y[i].name || !sameArguments(x[i].arguments, y[i].arguments)) return false;
  return true;
}

export function replayedAs(turn: ReplayTurn, text: string, toolCalls: ToolCall[] | undefined, via: ReplayedTurn['via']): ReplayedTurn {
  const out: ReplayedTurn = { text, changed: text !== turn.output || !sameCalls(toolCalls, turn.toolCalls), via };
  if (toolCalls && toolCalls.length > 0) out.toolCalls = toolCalls;
  return out;
}

export function asRecorded(turn: ReplayTurn, via: ReplayedTurn['via']): ReplayedTurn {
  return replayedAs(turn, turn.output, turn.toolCalls, via);
}

/**
 * A context built from the transcript (formats without requests): a system line naming the agent,
 * then each of the first `upTo` entries as `SPEAKER: text` (the agent's own words as the
 * assistant's), with `textOf` giving each entry's text (recorded, or replayed).
 */
export function transcriptMessages(agent: string, task: string, transcript: readonly TranscriptEntry[], upTo: number, textOf: (entry: TranscriptEntry) => string): LlmMessage[] {
  const about = task !== '' ? ' The task: ' + task : '';
  const messages: LlmMessage[] = [{ role: 'system', content: 'You are ' + agent + ', one agent of a team working on a task together.' + about + ' Continue the conversation with your next message.' }];
  for (let i = 0; i < upTo && i < transcript.length; i++) {
    const entry = transcript[i];
    messages.push({ role: entry.speaker === agent ? 'assistant' : 'user', content: entry.speaker + ': ' + textOf(entry) });
  }
  if (messages.length === 1) messages.push({ role: 'user', content: 'Begin.' });
  return messages;
}

/**
 * What one step's replay knows while it runs: the replayed turns so far, and what it has worked
 * out of them (what became of each recorded message and context, the messages as replayed), so
 * that a turn whose context did not change costs no work in the length of its context.
 *
 * A turn whose request the model host has not answered yet is *waiting*: the step goes on with
 * the turns that do not depend on it, so that every request of this round that can be known is
 * asked for at once (the engine suspends the step, fetches them all, and runs the round again),
 * and a chain of independent requests costs one round, not one round each. A turn that depends on
 * a waiting one waits too and sends nothing; the step then ends with the suspension.
 */
export interface ReplayState {
  run: ReplayRunData;
  replayed: Replayed;
  /** Turns waiting for a model answer, by index. */
  waiting: Record<number, boolean>;
  /** The first suspension caught (thrown again when the step's turns are done). */
  suspension?: unknown;
  /** By message number: what became of the turns it quotes (see Status). */
  messageStatus: Record<number, Status>;
  /** By message number: its content with the quoted outputs replaced. */
  messageText: Record<number, string>;
  /** By turn index: what became of the turns its recorded context (a request) quotes. */
  contextStatus: Record<number, Status>;
  /** Transcript entries read so far, and the first whose turn was replayed with other text, and the first whose turn waits (-1: none). */
  transcriptRead: number;
  transcriptFirstChange: number;
  transcriptFirstWait: number;
}

/** What became of the earlier turns a context quotes: all as recorded (0), one changed (1), one waiting for the model (2). */
export type Status = 0 | 1 | 2;

export function replayState(run: ReplayRunData, replayed: Replayed): ReplayState {
  return { run, replayed, waiting: {}, messageStatus: {}, messageText: {}, contextStatus: {}, transcriptRead: 0, transcriptFirstChange: -1, transcriptFirstWait: -1 };
}

/** A turn's replayed text when it differs from the record (undefined: as recorded, or not known yet). */
function replayedText(state: ReplayState, index: number): string | undefined {
  const now = state.replayed[index];
  return now !== undefined && state.waiting[index] !== true && now.text !== state.run.turns[index].output ? now.text : undefined;
}

function turnStatus(state: ReplayState, index: number): Status {
  if (state.waiting[index] === true) return 2;
  return replayedText(state, index) !== undefined ? 1 : 0;
}

/**
 * A tool call an assistant message carries, as turn `from` replayed it: the recorded call (null),
 * the call it makes instead, or undefined when it no longer makes it.
 */
function replayedCall(state: ReplayState, q: Quote): ToolCall | null | undefined {
  const now = state.replayed[q.from];
  if (now === undefined || state.waiting[q.from] === true || !now.changed) return null;
  const recorded = (state.run.turns[q.from].toolCalls || [])[q.fromCall || 0];
  const made = now.toolCalls ? now.toolCalls[q.fromCall || 0] : undefined;
  if (made === undefined) return undefined;
  return recorded !== undefined && made.name === recorded.name && sameArguments(made.arguments, recorded.arguments) ? null : made;
}

function quoteStatus(state: ReplayState, q: Quote): Status {
  if (q.call === undefined) return turnStatus(state, q.from);
  if (state.waiting[q.from] === true) return 2;
  return replayedCall(state, q) !== null || replayedText(state, q.from) !== undefined ? 1 : 0;
}

function messageStatus(state: ReplayState, id: number): Status {
  let status = state.messageStatus[id];
  if (status === undefined) {
    status = 0;
    for (const q of state.run.messages[id].quotes || []) status = Math.max(status, quoteStatus(state, q)) as Status;
    state.messageStatus[id] = status;
  }
  return status;
}

/** What became of the earlier turns a model turn's recorded context quotes (its chain of contexts followed back once per step). */
function contextStatus(state: ReplayState, turn: ReplayTurn): Status {
  const run = state.run;
  if (turn.transcript !== undefined) {
    // The transcript's entries are read once per step, in order: a later turn's context holds an earlier one's.
    const entries = run.transcript;
    for (; state.transcriptRead < turn.transcript && state.transcriptRead < entries.length; state.transcriptRead++) {
      const entry = entries[state.transcriptRead];
      const status = entry.turn !== null ? turnStatus(state, entry.turn) : 0;
      if (status === 1 && state.transcriptFirstChange < 0) state.transcriptFirstChange = state.transcriptRead;
      if (status === 2 && state.transcriptFirstWait < 0) state.transcriptFirstWait = state.transcriptRead;
    }
    if (state.transcriptFirstWait >= 0 && state.transcriptFirstWait < turn.transcript) return 2;
    return state.transcriptFirstChange >= 0 && state.transcriptFirstChange < turn.transcript ? 1 : 0;
  }
  const chain: ReplayTurn[] = [];
  let status: Status = 0;
  for (let t: ReplayTurn | undefined = turn; t !== undefined && t.context !== undefined; t = t.context.from >= 0 ? run.turns[t.context.from] : undefined) {
    const known = state.contextStatus[t.index];
    if (known !== undefined) {
      status = known;
      break;
    }
    chain.push(t);
  }
  for (let k = chain.length - 1; k >= 0; k--) {
    for (const id of (chain[k].context as TurnContext).add) status = Math.max(status, messageStatus(state, id)) as Status;
    state.contextStatus[chain[k].index] = status;
  }
  return status;
}

/** A turn that waits for a model answer (its own request, or one it depends on): a stand-in no later turn reads. */
function waitingTurn(state: ReplayState, turn: ReplayTurn, suspension?: unknown): ReplayedTurn {
  state.waiting[turn.index] = true;
  if (suspension !== undefined && state.suspension === undefined) state.suspension = suspension;
  return { text: turn.output, changed: false, via: 'waiting' };
}

/**
 * A recorded message with every quoted earlier output replaced by its replayed output, and each
 * tool call it carries by the call as replayed (a call no longer made is marked in `gone`).
 */
function replayedMessage(state: ReplayState, id: number, gone: Record<string, boolean>): LlmMessage {
  const m = state.run.messages[id];
  let content = state.messageText[id];
  const quotes = m.quotes || [];
  if (content === undefined) {
    content = m.content;
    // From the last span back, so the offsets of the spans before it stay right.
    for (let k = quotes.length - 1; k >= 0; k--) {
      if (quotes[k].call !== undefined) continue;
      const now = replayedText(state, quotes[k].from);
      if (now !== undefined) content = content.slice(0, quotes[k].start) + now + content.slice(quotes[k].end);
    }
    // An assistant message that is a call-only answer carries that turn's replayed text too.
    for (const q of quotes) {
      const said = state.run.turns[q.from].output;
      const now = q.call === 0 ? replayedText(state, q.from) : undefined;
      if (now !== undefined && content === said) content = now;
    }
    state.messageText[id] = content;
  }
  const out: LlmMessage = { role: m.role, content };
  if (m.tool_calls) {
    out.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: c.function.arguments } }));
    for (const q of quotes) {
      if (q.call === undefined || out.tool_calls[q.call] === undefined) continue;
      const made = replayedCall(state, q);
      if (made === undefined) gone[out.tool_calls[q.call].id] = true;
      else if (made !== null) out.tool_calls[q.call].function = { name: made.name, arguments: made.arguments };
    }
  }
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  return out;
}

/** The turn's recorded context with every quoted earlier output (and call) replaced by its replayed output. */
export function replayedContext(state: ReplayState, turn: ReplayTurn): LlmMessage[] {
  const run = state.run;
  if (turn.transcript !== undefined) {
    return transcriptMessages(turn.agent, run.task, run.transcript, turn.transcript, (entry) => {
      const now = entry.turn !== null ? replayedText(state, entry.turn) : undefined;
      return now !== undefined ? now : entry.text;
    });
  }
  const parts: number[][] = [];
  for (let c = turn.context; c !== undefined; c = c.from >= 0 ? run.turns[c.from].context : undefined) parts.push(c.add);
  const messages: LlmMessage[] = [];
  // Calls a replayed turn no longer makes: left out, with the results that answer them.
  const gone: Record<string, boolean> = {};
  for (let k = parts.length - 1; k >= 0; k--) for (const id of parts[k]) messages.push(replayedMessage(state, id, gone));
  return Object.keys(gone).length > 0 ? withoutCalls(messages, gone) : messages;
}

/** The message with only the calls `keep` keeps (no `tool_calls` when none is left). */
function withCalls(m: LlmMessage, keep: (id: string) => boolean): LlmMessage {
  const kept = (m.tool_calls || []).filter((c) => keep(c.id));
  const copy: LlmMessage = { role: m.role, content: m.content };
  if (kept.length > 0) copy.tool_calls = kept;
  return copy;
}

/** The messages without the calls named, and without the results that answer them. */
function withoutCalls(messages: readonly LlmMessage[], gone: Readonly<Record<string, boolean>>): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const m of messages) {
    if (m.role === 'tool' && m.tool_call_id !== undefined && gone[m.tool_call_id] === true) continue;
    out.push(m.tool_calls ? withCalls(m, (id) => gone[id] !== true) : m);
  }
  return out;
}

/**
 * Tool results stay paired with their calls after an edit, as endpoints require: a result whose
 * call is no longer before it travels as a user message, and a call left with no result is dropped.
 */
export function pairToolMessages(messages: readonly LlmMessage[]): LlmMessage[] {
  const called: Record<string, boolean> = {};
  const answered: Record<string, boolean> = {};
  for (const m of messages) {
    if (m.tool_calls) for (const c of m.tool_calls) called[c.id] = true;
    if (m.role === 'tool' && m.tool_call_id !== undefined && called[m.tool_call_id] === true) answered[m.tool_call_id] = true;
  }
  const out: LlmMessage[] = [];
  for (const m of messages) {
    if (m.role === 'tool' && (m.tool_call_id === undefined || answered[m.tool_call_id] !== true)) out.push({ role: 'user', content: '[tool result] ' + m.content });
    else if (m.tool_calls && m.tool_calls.some((c) => answered[c.id] !== true)) out.push(withCalls(m, (id) => answered[id] === true));
    else out.push(m);
  }
  return out;
}

type ContextFix = Extract<Intervention, { kind: 'context' }>;

export function editContext(messages: LlmMessage[], fix: ContextFix): LlmMessage[] {
  if (fix.op === 'system+=') {
    if (messages.length > 0 && messages[0].role === 'system') return [{ role: 'system', content: messages[0].content + '\n' + fix.text }, ...messages.slice(1)];
    return [{ role: 'system', content: fix.text }, ...messages];
  }
  if (fix.op === 'drop') return messages.filter((_, i) => i !== fix.index);
  const text = fix.text;
  return messages.map((m, i) => (i === fix.index ? { ...m, content: text } : m));
}

/** A model turn: kept as recorded unless its context changed or a fix asks for the model (its context is built only then). */
export function replayModelTurn(state: ReplayState, turn: ReplayTurn, fixes: readonly Intervention[], llm: RuleLlm): ReplayedTurn {
  for (const f of fixes) if (f.kind === 'action') return replayedAs(turn, f.text, undefined, 'action');
  const edits = fixes.filter((f): f is ContextFix => f.kind === 'context');
  const asks = fixes.some((f) => f.kind === 'resample' || f.kind === 'policy' || f.kind === 'repair');
  const status = contextStatus(state, turn);
  if (status === 2) return waitingTurn(state, turn);
  if (edits.length === 0 && !asks && status === 0) return asRecorded(turn, 'recorded');
  let messages = replayedContext(state, turn);
  let model: string | undefined;
  let temperature = turn.temperature;
  let key = 'turn ' + turn.index;
  // Context edits name the recorded messages by index: drops and replacements first, from the last index down.
  const byIndex = edits.filter((f): f is Exclude<ContextFix, { op: 'system+=' }> => f.op !== 'system+=').sort((a, b) => b.index - a.index);
  for (const f of byIndex) messages = editContext(messages, f);
  for (const f of edits) if (f.op === 'system+=') messages = editContext(messages, f);
  for (const f of fixes) {
    if (f.kind === 'resample') {
      key += ' resample';
      if (turn.temperature === undefined) temperature = 1;
    } else if (f.kind === 'policy') {
      model = f.alias;
      if (f.temperature !== undefined) temperature = f.temperature;
    } else if (f.kind === 'repair') {
      const note = 'Your answer above may be wrong' + (f.hint ? ': ' + f.hint : '.') + ' Redo this step and give your corrected answer in full.';
      // The recorded answer with its calls written out: a call in tool_calls would need its results after it.
      const said = [turn.output].concat((turn.toolCalls || []).map((c) => '[tool call] ' + c.name + '(' + c.arguments + ')')).filter((t) => t !== '').join('\n');
      const answer: LlmMessage[] = said !== '' ? [{ role: 'assistant', content: said }] : [];
      messages = [...messages, ...answer, { role: 'user', content: note }];
    }
  }
  // Sent as recorded: the tools and sampling parameters the run's request carried (an alias's max_tokens caps it).
  const args: LlmChatArgs = { messages: edits.length > 0 ? pairToolMessages(messages) : messages, key };
  if (model !== undefined) args.model = model;
  if (temperature !== undefined) args.temperature = temperature;
  if (turn.top_p !== undefined) args.top_p = turn.top_p;
  if (turn.max_tokens !== undefined) args.max_tokens = turn.max_tokens;
  if (turn.stop !== undefined) args.stop = turn.stop;
  if (turn.tools !== undefined) args.tools = state.run.toolSets[turn.tools];
  let answer: LlmChatResult;
  try {
    answer = llm.chat(args);
  } catch (e) {
    // Not answered yet: the step goes on with the turns that do not need this answer (see ReplayState).
    if (e !== null && typeof e === 'object' && (e as { name?: unknown }).name === 'StepSuspended') return waitingTurn(state, turn, e);
    throw e;
  }
  const calls = answer.toolCalls ? answer.toolCalls.map((c): ToolCall => (c.id !== undefined ? { id: c.id, name: c.name, arguments: c.arguments } : { name: c.name, arguments: c.arguments })) : undefined;
  return replayedAs(turn, answer.text, calls, 'model');
}

/** A tool call's arguments as the stub receives them: parsed when they are JSON, else the text. */
export function toolArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (_) {
    return text;
  }
}

/**
 * A tool turn: its recorded result while its call is unchanged; a changed call runs its stub, or
 * reuses the recorded result (flagged) when there is none; a call the replayed model no longer
 * makes is absent (no result, and later contexts lose it).
 */
export function replayToolTurn(rule: RuleSettings, state: ReplayState, turn: ReplayTurn, fixes: readonly Intervention[]): ReplayedTurn {
  for (const f of fixes) if (f.kind === 'observation') return replayedAs(turn, f.text, undefined, 'observation');
  const recordedCall = turn.call as ToolCall;
  const caller = turn.caller !== undefined && turn.caller >= 0 ? state.replayed[turn.caller] : undefined;
  if (turn.caller !== undefined && state.waiting[turn.caller] === true) return waitingTurn(state, turn);
  let call: ToolCall = recordedCall;
  if (caller !== undefined && caller.changed) {
    if (turn.callIndex === null || turn.callIndex === undefined) call = { name: recordedCall.name, arguments: caller.text };
    else if (caller.toolCalls && caller.toolCalls[turn.callIndex]) call = caller.toolCalls[turn.callIndex];
    else return replayedAs(turn, '', undefined, 'absent');
  }
  const unchanged = call.name === recordedCall.name && sameArguments(call.arguments, recordedCall.arguments);
  const stubbed = fixes.some((f) => f.kind === 'stub');
  if (unchanged && !stubbed) return asRecorded(turn, 'recorded');
  if (Object.prototype.hasOwnProperty.call(rule.tools, call.name)) {
    const result = rule.tools[call.name](toolArguments(call.arguments));
    return replayedAs(turn, typeof result === 'string' ? result : JSON.stringify(result), undefined, 'stub');
  }
  return asRecorded(turn, 'reused');
}

/** Step k: the turns of its segment, each fixed when its player is (this step's own player: `fixed`). */
export function replaySegment(rule: RuleSettings, k: number, inputs: Readonly<Record<string, unknown>>, llm: RuleLlm, fixed: boolean): SegmentOutput {
  const run = inputs.recording as ReplayRunData;
  const replayed: Replayed = {};
  const fixedPlayers: Record<number, boolean> = {};
  for (let j = 0; j < k; j++) {
    const earlier = inputs[rule.steps[j]] as SegmentOutput;
    Object.assign(replayed, earlier.turns);
    if (earlier.fixed === true) fixedPlayers[j] = true;
  }
  const state = replayState(run, replayed);
  const own: Replayed = {};
  for (const turn of run.turns) {
    if (turn.segment !== k) continue;
    const isFixed = turn.player === k ? fixed : fixedPlayers[turn.player] === true;
    // A contrast replay regenerates every model turn from a point on (a fresh sample each, by its world's seed).
    const regenerate = run.regenerateFrom !== undefined && turn.index >= run.regenerateFrom && turn.kind === 'model';
    const fixes: readonly Intervention[] = regenerate ? [{ kind: 'resample' }] : isFixed ? turn.fixes : [];
    const result = turn.kind === 'tool' ? replayToolTurn(rule, state, turn, fixes) : replayModelTurn(state, turn, fixes, llm);
    replayed[turn.index] = result;
    own[turn.index] = result;
  }
  // Every request this step could know is asked for: now it waits for the answers.
  if (state.suspension !== undefined) throw state.suspension;
  const output: SegmentOutput = { turns: own };
  if (run.interleaved) output.fixed = fixed;
  if (k === rule.steps.length - 1 && rule.outcome.kind === 'judge') output.verdict = judge(rule.outcome.rubric, run, replayed, llm);
  return output;
}

/** Every replayed turn, from the steps' outputs. */
export function replayedTurns(rule: RuleSettings, outputs: Readonly<Record<string, unknown>>): Replayed {
  const replayed: Replayed = {};
  for (const name of rule.steps) Object.assign(replayed, (outputs[name] as SegmentOutput).turns);
  return replayed;
}

/** The final answer: the last model turn that says more than TERMINATE (what follows its last "FINAL ANSWER:", if it has one). */
export function finalAnswer(run: ReplayRunData, replayed: Replayed): string {
  for (let i = run.turns.length - 1; i >= 0; i--) {
    const turn = run.turns[i];
    if (turn.kind !== 'model') continue;
    const text = replayed[i] !== undefined ? replayed[i].text : turn.output;
    if (text.trim() === '' || /^TERMINATE\.?$/i.test(text.trim())) continue;
    const marked = [...text.matchAll(/FINAL ANSWER:[ \t]*([^\n]*)/gi)];
    return marked.length > 0 ? marked[marked.length - 1][1].trim() : text;
  }
  return '';
}

/** Whether the answer contains the expected text, case and spacing aside, not as part of a longer word or number. */
export function containsAnswer(answer: string, expected: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const a = norm(answer);
  const e = norm(expected);
  if (e === '') return false;
  const word = /[a-z0-9]/;
  for (let at = a.indexOf(e); at >= 0; at = a.indexOf(e, at + 1)) {
    const before = at > 0 ? a[at - 1] : '';
    const after = a[at + e.length] || '';
    if (!(word.test(e[0]) && word.test(before)) && !(word.test(e[e.length - 1]) && word.test(after))) return true;
  }
  return false;
}

/** The judge's verdict (`--judge`): pass or fail, chosen by the model over the task and the final answer. */
export function judge(rubric: string, run: ReplayRunData, replayed: Replayed, llm: RuleLlm): string {
  return llm.choose({
    messages: [
      { role: 'system', content: 'You check whether an agent run reached a correct final answer. Rubric: ' + rubric },
      { role: 'user', content: 'Task:\n' + run.task + '\n\nFinal answer:\n' + finalAnswer(run, replayed) },
    ],
    options: ['pass', 'fail'],
    key: 'judge',
  });
}

/** 1 when the replayed run succeeds, 0 when it fails (or the metric file's number). */
export function outcome(rule: RuleSettings, outputs: Readonly<Record<string, unknown>>, run: ReplayRunData): number {
  const replayed = replayedTurns(rule, outputs);
  const final = finalAnswer(run, replayed);
  const how = rule.outcome;
  if (how.kind === 'expect') return containsAnswer(final, how.text !== null ? how.text : (run.expected ?? '')) ? 1 : 0;
  if (how.kind === 'expect-regex') return new RegExp(how.source, how.flags).test(final) ? 1 : 0;
  if (how.kind === 'judge') return (outputs[rule.steps[rule.steps.length - 1]] as SegmentOutput).verdict === 'pass' ? 1 : 0;
  const metric = rule.metric as NonNullable<RuleSettings['metric']>;
  return metric({ turns: run.turns.map((t) => ({ agent: t.agent, kind: t.kind, name: t.name, output: replayed[t.index] !== undefined ? replayed[t.index].text : t.output })), final });
}
