/**
 * A replay case's `recording` input read back as a ReplayRunData: from a definition or a session
 * file, so untrusted, read field by field into a plain copy, never cast. Null when the value is not
 * a recording of the current layout (contexts by reference: docs/replay.md, "How the definition
 * holds the run") or names what is not in it; the reason is given to say why.
 */
import type { LlmMessage, LlmToolCall } from '../engine/types.ts';
import type { ContextMessage, Intervention, Quote, ReplayRunData, ReplayTurn, ToolCall, TranscriptEntry } from './types.ts';

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const ROLES: readonly LlmMessage['role'][] = ['system', 'user', 'assistant', 'tool'];

class Refused extends Error {}

function refuse(path: string, what: string): never {
  throw new Refused(`recording${path}: ${what}`);
}

function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) refuse(path, 'not a list');
  return value;
}

function text(value: unknown, path: string): string {
  if (!isString(value)) refuse(path, 'not a text');
  return value;
}

function index(value: unknown, below: number, path: string): number {
  if (!isInt(value) || value < 0 || value >= below) refuse(path, `not a number from 0 to ${below - 1}`);
  return value;
}

function toolCall(value: unknown, path: string): ToolCall {
  if (!isObject(value)) refuse(path, 'not a tool call');
  const call: ToolCall = { name: text(value.name, `${path}.name`), arguments: text(value.arguments, `${path}.arguments`) };
  if (value.id !== undefined) call.id = text(value.id, `${path}.id`);
  return call;
}

function quote(value: unknown, turns: number, length: number, path: string): Quote {
  if (!isObject(value)) refuse(path, 'not a quote');
  const q: Quote = { start: index(value.start, length + 1, `${path}.start`), end: index(value.end, length + 1, `${path}.end`), from: index(value.from, turns, `${path}.from`) };
  if (q.end < q.start) refuse(`${path}.end`, 'before its start');
  if (value.call !== undefined) q.call = index(value.call, Number.MAX_SAFE_INTEGER, `${path}.call`);
  if (value.fromCall !== undefined) q.fromCall = index(value.fromCall, Number.MAX_SAFE_INTEGER, `${path}.fromCall`);
  return q;
}

function message(value: unknown, turns: number, path: string): ContextMessage {
  if (!isObject(value)) refuse(path, 'not a message');
  const role = value.role as LlmMessage['role'];
  if (!ROLES.includes(role)) refuse(`${path}.role`, `not one of ${ROLES.join(', ')}`);
  const content = text(value.content, `${path}.content`);
  const m: ContextMessage = { role, content };
  if (value.tool_calls !== undefined) {
    m.tool_calls = list(value.tool_calls, `${path}.tool_calls`).map((c, k): LlmToolCall => {
      const at = `${path}.tool_calls[${k}]`;
      if (!isObject(c) || !isObject(c.function)) refuse(at, 'not a tool call');
      return { id: text(c.id, `${at}.id`), type: 'function', function: { name: text(c.function.name, `${at}.function.name`), arguments: text(c.function.arguments, `${at}.function.arguments`) } };
    });
  }
  if (value.tool_call_id !== undefined) m.tool_call_id = text(value.tool_call_id, `${path}.tool_call_id`);
  if (value.quotes !== undefined) m.quotes = list(value.quotes, `${path}.quotes`).map((q, k) => quote(q, turns, content.length, `${path}.quotes[${k}]`));
  return m;
}

function intervention(value: unknown, path: string): Intervention {
  if (!isObject(value)) refuse(path, 'not a fix');
  switch (value.kind) {
    case 'resample':
    case 'stub':
      return { kind: value.kind };
    case 'action':
    case 'observation':
      return { kind: value.kind, text: text(value.text, `${path}.text`) };
    case 'repair':
      return value.hint === undefined ? { kind: 'repair' } : { kind: 'repair', hint: text(value.hint, `${path}.hint`) };
    case 'policy': {
      const fix: Intervention = { kind: 'policy', alias: text(value.alias, `${path}.alias`) };
      if (value.temperature !== undefined) {
        if (typeof value.temperature !== 'number') refuse(`${path}.temperature`, 'not a number');
        fix.temperature = value.temperature;
      }
      return fix;
    }
    case 'context':
      if (value.op === 'system+=') return { kind: 'context', op: 'system+=', text: text(value.text, `${path}.text`) };
      if (value.op === 'drop') return { kind: 'context', op: 'drop', index: index(value.index, Number.MAX_SAFE_INTEGER, `${path}.index`) };
      if (value.op === 'replace') return { kind: 'context', op: 'replace', index: index(value.index, Number.MAX_SAFE_INTEGER, `${path}.index`), text: text(value.text, `${path}.text`) };
      return refuse(`${path}.op`, 'not system+=, drop or replace');
    default:
      return refuse(`${path}.kind`, 'not a fix kind');
  }
}

const NUMBER_PARAMS = ['temperature', 'top_p', 'max_tokens'] as const;

function turn(value: unknown, at: number, run: { turns: number; messages: number; toolSets: number; players: number }, path: string): ReplayTurn {
  if (!isObject(value)) refuse(path, 'not a turn');
  if (value.index !== at) refuse(`${path}.index`, `not ${at}`);
  const kind = value.kind;
  if (kind !== 'model' && kind !== 'tool') refuse(`${path}.kind`, 'not model or tool');
  if (!isInt(value.step)) refuse(`${path}.step`, 'not a whole number');
  if (!isInt(value.player) || value.player < -1 || value.player >= run.players) refuse(`${path}.player`, 'names no player');
  const t: ReplayTurn = {
    index: at,
    step: value.step,
    name: text(value.name, `${path}.name`),
    agent: text(value.agent, `${path}.agent`),
    kind,
    output: text(value.output, `${path}.output`),
    fixes: list(value.fixes, `${path}.fixes`).map((f, k) => intervention(f, `${path}.fixes[${k}]`)),
    player: value.player,
    segment: index(value.segment, Math.max(1, run.players), `${path}.segment`),
  };
  if (value.context !== undefined) {
    const c = value.context;
    if (!isObject(c) || !isInt(c.from) || c.from < -1 || c.from >= at) refuse(`${path}.context`, 'not a context of an earlier turn');
    t.context = { from: c.from, add: list(c.add, `${path}.context.add`).map((id, k) => index(id, run.messages, `${path}.context.add[${k}]`)) };
  }
  if (value.transcript !== undefined) t.transcript = index(value.transcript, Number.MAX_SAFE_INTEGER, `${path}.transcript`);
  if (value.toolCalls !== undefined) t.toolCalls = list(value.toolCalls, `${path}.toolCalls`).map((c, k) => toolCall(c, `${path}.toolCalls[${k}]`));
  if (value.tools !== undefined) t.tools = index(value.tools, run.toolSets, `${path}.tools`);
  for (const name of NUMBER_PARAMS) {
    const v = value[name];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) refuse(`${path}.${name}`, 'not a number');
    t[name] = v;
  }
  if (value.stop !== undefined) t.stop = list(value.stop, `${path}.stop`).map((s, k) => text(s, `${path}.stop[${k}]`));
  if (value.caller !== undefined) {
    if (!isInt(value.caller) || value.caller < -1 || value.caller >= at) refuse(`${path}.caller`, 'not an earlier turn');
    t.caller = value.caller;
  }
  if (value.callIndex !== undefined) t.callIndex = value.callIndex === null ? null : index(value.callIndex, Number.MAX_SAFE_INTEGER, `${path}.callIndex`);
  if (value.call !== undefined) t.call = toolCall(value.call, `${path}.call`);
  if (kind === 'tool' && t.call === undefined) refuse(`${path}.call`, 'a tool turn without its call');
  return t;
}

/** The run a replay case replays, or a reason it cannot be read (see the file's comment). */
export function replayRunOf(value: unknown): { run: ReplayRunData } | { problem: string } {
  try {
    return { run: readRun(value) };
  } catch (e) {
    if (e instanceof Refused) return { problem: e.message };
    throw e;
  }
}

function readRun(value: unknown): ReplayRunData {
  if (!isObject(value)) refuse('', 'not a recorded run');
  if (!Array.isArray(value.messages)) refuse('.messages', 'absent: the recording was made before contexts were kept by reference');
  const rawTurns = list(value.turns, '.turns');
  const players = list(value.players, '.players').map((p, k) => text(p, `.players[${k}]`));
  const toolSets = list(value.toolSets, '.toolSets').map((s, k) => [...list(s, `.toolSets[${k}]`)]);
  const messages = value.messages.map((m, k) => message(m, rawTurns.length, `.messages[${k}]`));
  const transcript = list(value.transcript, '.transcript').map((e, k): TranscriptEntry => {
    const path = `.transcript[${k}]`;
    if (!isObject(e)) refuse(path, 'not an entry');
    return { speaker: text(e.speaker, `${path}.speaker`), text: text(e.text, `${path}.text`), turn: e.turn === null ? null : index(e.turn, rawTurns.length, `${path}.turn`) };
  });
  const sizes = { turns: rawTurns.length, messages: messages.length, toolSets: toolSets.length, players: players.length };
  const turns = rawTurns.map((t, k) => turn(t, k, sizes, `.turns[${k}]`));
  for (const t of turns) if (t.caller !== undefined && t.caller >= 0 && turns[t.caller].kind !== 'model') refuse(`.turns[${t.index}].caller`, 'not a model turn');
  if (typeof value.interleaved !== 'boolean') refuse('.interleaved', 'not true or false');
  const run: ReplayRunData = { id: text(value.id, '.id'), transcript, messages, toolSets, task: text(value.task, '.task'), players, turns, interleaved: value.interleaved };
  if (value.name !== undefined) run.name = text(value.name, '.name');
  if (value.expected !== undefined) run.expected = text(value.expected, '.expected');
  if (value.regenerateFrom !== undefined) run.regenerateFrom = index(value.regenerateFrom, Number.MAX_SAFE_INTEGER, '.regenerateFrom');
  return run;
}
