/**
 * runtape JSONL (FORMATS.md §6): one event per line. An LLM request and its response are one
 * step, as are a tool call and its result; later requests' `base` + `messages_append` are
 * resolved into full message lists. A torn last line (a recorder killed mid-write) is ignored;
 * a bad line elsewhere is an error naming it. The run_start event is the root step.
 */
import { buildRun, type RunStatus, type StepDraft } from '../../runs/index.ts';
import { FormatError } from '../format-error.ts';
import type { Importer } from '../importer.ts';
import { childPath } from '../json-path.ts';
import { describeValue, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optArray, optObject, optString, requireString, toCount } from '../recorded/fields.ts';
import { firstLine } from '../recorded/sniff.ts';
import { secondsToMs } from '../recorded/times.ts';

interface RuntapeEvent {
  id: number;
  ts: number | null;
  type: string;
  parent: number | null;
  payload: JsonObject;
  meta: JsonObject;
  path: string;
}

function readEvents(text: string): RuntapeEvent[] {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === '') last--;
  const events: RuntapeEvent[] = [];
  for (let i = 0; i <= last; i++) {
    if (lines[i].trim() === '') continue;
    const where = `line ${i + 1}`;
    let value: unknown;
    try {
      value = parseJsonKeepingBigInts(lines[i], where);
    } catch (error) {
      if (i === last && i > 0) break; // torn last line
      throw error;
    }
    const event = expectObject(value, where);
    const id = ownField(event, 'id');
    if (typeof id !== 'number' || !Number.isInteger(id)) throw new FormatError(childPath(where, 'id'), `expected an event number, ${describeValue(id)}`);
    const parent = ownField(event, 'parent');
    if (parent !== undefined && parent !== null && (typeof parent !== 'number' || !Number.isInteger(parent))) throw new FormatError(childPath(where, 'parent'), `expected an event number or null, ${describeValue(parent)}`);
    events.push({
      id,
      ts: secondsToMs(ownField(event, 'ts'), childPath(where, 'ts')),
      type: requireString(event, 'type', where),
      parent: typeof parent === 'number' ? parent : null,
      payload: optObject(event, 'payload', where) ?? {},
      meta: optObject(event, 'meta', where) ?? {},
      path: where,
    });
  }
  if (events.length === 0) throw new FormatError('', 'the file holds no runtape events');
  return events;
}

/** More resolved messages than this (summed over requests) is refused rather than filling memory. */
export const MAX_RESOLVED_MESSAGES = 5_000_000;

/**
 * Full message list of every request: its own `messages`, or its base's list plus
 * `messages_append`. A base must be an earlier request, so one pass in file order resolves every
 * chain (no recursion, no loop to follow), each list built once from its base's. A chain whose
 * lists would hold more than MAX_RESOLVED_MESSAGES in all is refused, naming the request.
 */
function resolveAllMessages(events: readonly RuntapeEvent[]): Map<number, unknown[]> {
  const resolved = new Map<number, unknown[]>();
  let total = 0;
  for (const request of events) {
    if (request.type !== 'llm_request') continue;
    const payloadPath = childPath(request.path, 'payload');
    const own = optArray(request.payload, 'messages', payloadPath);
    let list: unknown[];
    if (own) list = own;
    else {
      const base = ownField(request.payload, 'base');
      const append = optArray(request.payload, 'messages_append', payloadPath) ?? [];
      if (base === undefined || base === null) list = append;
      else {
        if (typeof base !== 'number') throw new FormatError(childPath(payloadPath, 'base'), `expected the number of an earlier llm_request, ${describeValue(base)}`);
        const from = resolved.get(base);
        if (!from) throw new FormatError(childPath(payloadPath, 'base'), `names request ${base}, which is not an llm_request before it`);
        list = from.concat(append);
      }
    }
    total += list.length;
    if (total > MAX_RESOLVED_MESSAGES) throw new FormatError(childPath(payloadPath, 'base'), `the base chains resolve to more than ${MAX_RESOLVED_MESSAGES.toLocaleString('en')} messages in all; this reader refuses the file rather than fill memory`);
    resolved.set(request.id, list);
  }
  return resolved;
}

/**
 * The function definitions each request was sent: its own `tools`, else its base's (runtape
 * records them only when they change), resolved in file order as the messages are.
 */
function resolveTools(events: readonly RuntapeEvent[]): Map<number, unknown[]> {
  const resolved = new Map<number, unknown[]>();
  for (const request of events) {
    if (request.type !== 'llm_request') continue;
    const own = optArray(request.payload, 'tools', childPath(request.path, 'payload'));
    const base = ownField(request.payload, 'base');
    const inherited = typeof base === 'number' ? resolved.get(base) : undefined;
    const list = own ?? inherited;
    if (list && list.length > 0) resolved.set(request.id, list);
  }
  return resolved;
}

/** The agent an event names (`meta.agent` or `payload.agent`, as multi-agent wrappers tag them), if any. */
function agentOf(e: RuntapeEvent): string | undefined {
  const named = optString(e.meta, 'agent', childPath(e.path, 'meta')) ?? optString(e.payload, 'agent', childPath(e.path, 'payload'));
  return named !== undefined && named.trim() !== '' ? named : undefined;
}

export function readRuntape(text: string) {
  const events = readEvents(text);
  const responses = new Map<number, RuntapeEvent>();
  const results = new Map<number, RuntapeEvent>();
  for (const e of events) {
    if (e.type === 'llm_response' && e.parent !== null) responses.set(e.parent, e);
    if (e.type === 'tool_result' && e.parent !== null) results.set(e.parent, e);
  }
  const start = events.find((e) => e.type === 'run_start');
  const end = events.find((e) => e.type === 'run_end');
  const rootId = start ? String(start.id) : null;
  const messages = resolveAllMessages(events);
  const tools = resolveTools(events);
  const steps: StepDraft[] = [];
  const callers = new Map<string, string>();
  for (const e of events) {
    const payloadPath = childPath(e.path, 'payload');
    if (e.type === 'llm_request') {
      const response = responses.get(e.id);
      const tokens = response && isJsonObject(response.meta.tokens) ? response.meta.tokens : undefined;
      const input = toCount(tokens?.input, childPath(childPath(childPath(response?.path ?? e.path, 'meta'), 'tokens'), 'input'));
      const output = toCount(tokens?.output, childPath(childPath(childPath(response?.path ?? e.path, 'meta'), 'tokens'), 'output'));
      const model = optString(e.payload, 'model', payloadPath) ?? optString(e.meta, 'model', childPath(e.path, 'meta')) ?? null;
      const step: StepDraft = {
        id: String(e.id),
        parent: rootId,
        name: `llm ${model ?? ''}`.trim(),
        kind: 'llm',
        start: e.ts,
        end: response?.ts ?? null,
        model,
        usage: input === undefined && output === undefined ? null : { input: input ?? 0, output: output ?? 0 },
        error: null,
        order: e.id,
        input: { form: 'value', value: messages.get(e.id) ?? [] },
        attributes: { provider: e.payload.provider ?? null, api: e.payload.api ?? null, params: e.payload.params ?? null, ...(tools.has(e.id) && { tools: tools.get(e.id) }), ...(response ? { response_event: response.id, stop_reason: response.payload.stop_reason ?? null, latency_ms: response.meta.latency_ms ?? null } : {}) },
      };
      const agent = agentOf(e);
      if (agent !== undefined) step.agent = agent;
      if (response) {
        const calls = optArray(response.payload, 'tool_calls', childPath(response.path, 'payload')) ?? [];
        step.output = { form: 'value', value: [{ role: 'assistant', content: response.payload.text ?? '', tool_calls: calls }] };
        for (const call of calls) if (isJsonObject(call) && typeof call.id === 'string') callers.set(call.id, step.id);
      }
      steps.push(step);
    } else if (e.type === 'tool_call') {
      const result = results.get(e.id);
      const error = result && isJsonObject(result.payload.error) ? result.payload.error : undefined;
      const callId = optString(e.payload, 'call_id', payloadPath);
      const step: StepDraft = {
        id: String(e.id),
        parent: rootId,
        name: optString(e.payload, 'name', payloadPath) ?? 'tool',
        kind: 'tool',
        start: e.ts,
        end: result?.ts ?? null,
        model: null,
        usage: null,
        error: error ? String(error.message ?? error.type ?? 'error') : null,
        order: e.id,
        input: { form: 'value', value: e.payload.arguments ?? null, role: 'tool' },
        attributes: { ...(callId ? { call_id: callId, called_by: callers.get(callId) ?? null } : {}) },
      };
      if (result) step.output = { form: 'value', value: result.payload.result ?? error ?? null, role: 'tool' };
      const agent = agentOf(e);
      if (agent !== undefined) step.agent = agent;
      steps.push(step);
    } else if (e.type === 'error') {
      steps.push({ id: String(e.id), parent: rootId, name: 'error', kind: 'other', start: e.ts, end: e.ts, model: null, usage: null, error: String(e.payload.message ?? e.payload.type ?? 'error'), order: e.id, attributes: { ...e.payload } });
    }
  }
  const runStatus = end ? optString(end.payload, 'status', childPath(end.path, 'payload')) : undefined;
  const status: RunStatus | undefined = runStatus === 'ok' ? 'ok' : runStatus === 'error' || runStatus === 'diverged' ? 'error' : undefined;
  const name = start ? (optString(start.payload, 'name', childPath(start.path, 'payload')) ?? 'run') : 'run';
  if (start) {
    // The run itself is a workflow, not an agent: runtape names agents only in `meta.agent`, so the run's name never names a turn.
    steps.unshift({ id: String(start.id), parent: null, name, kind: 'chain', start: start.ts, end: end?.ts ?? null, model: null, usage: null, error: status === 'error' ? `run ended: ${runStatus}` : null, order: start.id, attributes: { ...start.payload } });
  }
  const runId = start && typeof start.payload.run_id === 'string' ? start.payload.run_id : name;
  return { format: 'runtape', runs: [buildRun({ id: runId, name, steps, ...(status ? { status } : {}) })] };
}

export const runtapeImporter: Importer = {
  label: 'runtape recordings (JSONL)',
  sniff: (text) => {
    const line = firstLine(text);
    return /^\{/.test(line) && /"type"\s*:\s*"(run_start|llm_request|llm_response|tool_call|tool_result|state|log|error|run_end)"/.test(line) && line.includes('"payload"');
  },
  import: (text) => ({ kind: 'runs', runs: readRuntape(text) }),
};
