/**
 * Reads a step's messages from their recorded form, only when asked (a view opening a step).
 * Understands OTel GenAI `parts` messages, OpenAI chat messages and Responses items, Anthropic
 * content blocks, OpenInference flattened attributes and the deprecated `gen_ai.prompt.N.*`
 * attributes. JSON inside strings is parsed (also twice encoded); what cannot be parsed is kept
 * as its raw text, marked `raw`.
 */
import type { ChatMessage, MessageSource, RecordedStep } from './types.ts';

/** The step's input or output messages ([] when none were recorded). */
export function readStepMessages(step: Pick<RecordedStep, 'input' | 'output' | 'attributes'>, which: 'input' | 'output'): ChatMessage[] {
  const source = which === 'input' ? step.input : step.output;
  if (!source) return [];
  return readMessages(source, step.attributes, which === 'input' ? 'user' : 'assistant');
}

export function readMessages(source: MessageSource, attributes: Record<string, unknown>, defaultRole: string): ChatMessage[] {
  if (source.form === 'flat') return readFlat(attributes, source.prefix, source.scheme);
  return fromValue(source.value, source.role ?? defaultRole);
}

/** Parses JSON text that looks like JSON; undefined when it is not JSON. */
function tryJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('[') || t.startsWith('"'))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    // Nested too deep for JSON.stringify (a hostile file): say so rather than fail the whole view.
    return '[a value nested too deep to show]';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fromValue(value: unknown, role: string, depth = 0): ChatMessage[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') {
    const parsed = depth < 3 ? tryJson(value) : undefined;
    if (parsed === undefined || typeof parsed === 'number' || typeof parsed === 'boolean' || parsed === null) return value === '' ? [] : [{ role, text: value }];
    if (typeof parsed === 'string') return fromValue(parsed, role, depth + 1);
    return fromValue(parsed, role, depth + 1);
  }
  if (Array.isArray(value)) {
    // LangSmith writes a batch of prompts as a list of message lists: `[[message, ...]]`.
    const items = value.length > 0 && value.every(Array.isArray) ? value.flat() : value;
    const calls = toolCallList(items);
    if (calls) return [{ role: 'assistant', text: '', toolCalls: calls }];
    const messages = items.flatMap((item): ChatMessage[] => (isLangChainMessage(item) ? [fromLangChain(item)] : isMessageLike(item) ? [toMessage(item, role)] : []));
    if (messages.length === items.length && messages.length > 0) return messages;
    return [{ role, text: asText(value), raw: messages.length === 0 ? undefined : true }].map(dropUndefined);
  }
  if (isObject(value)) {
    // Containers seen in the samples: LangSmith `{messages}`, OpenAI responses `{choices}`,
    // `{input}` / `{output}` wrappers, Responses `{output: [items]}`, LangChain `{generations}`.
    if (Array.isArray(value.messages)) return fromValue(value.messages, role, depth + 1);
    if (isLangChainMessage(value)) return [fromLangChain(value)];
    if (Array.isArray(value.generations)) {
      const generations = value.generations.flat().filter(isObject);
      const out = generations.flatMap((g): ChatMessage[] => (isLangChainMessage(g.message) ? [fromLangChain(g.message)] : typeof g.text === 'string' ? [{ role: 'assistant', text: g.text }] : []));
      if (out.length > 0) return out;
    }
    // A Responses API response (`object: "response"`) or any `{output: [items]}` of message-like items.
    if (Array.isArray(value.output) && value.output.length > 0 && value.output.every((item) => isMessageLike(item) || isReasoningItem(item))) {
      return value.output.filter(isMessageLike).map((item) => toMessage(item, 'assistant'));
    }
    // A tool's result wrapped in `{output}` / `{result}` as frameworks record it: its text, as the tool's message.
    for (const key of ['output', 'result']) {
      if (Object.keys(value).length === 1 && (typeof value[key] === 'string' || isObject(value[key]) || Array.isArray(value[key]))) return fromValue(value[key], role, depth + 1);
    }
    if (Array.isArray(value.choices)) {
      return value.choices.flatMap((c) => (isObject(c) && isObject(c.message) ? [toMessage(c.message, 'assistant')] : isObject(c) && typeof c.text === 'string' ? [{ role: 'assistant', text: c.text }] : []));
    }
    if (isMessageLike(value)) return [toMessage(value, role)];
    return [{ role, text: asText(value) }];
  }
  return [{ role, text: String(value) }];
}

/** Responses API reasoning items carry no text to show (their summary may be empty or encrypted). */
function isReasoningItem(item: unknown): boolean {
  return isObject(item) && item.type === 'reasoning';
}

/** A LangChain message as LangSmith serialises it: `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs}`. */
function isLangChainMessage(item: unknown): boolean {
  return isObject(item) && item.lc === 1 && Array.isArray(item.id) && isObject(item.kwargs);
}

const LANGCHAIN_ROLES: Record<string, string> = { AIMessage: 'assistant', AIMessageChunk: 'assistant', HumanMessage: 'user', SystemMessage: 'system', ToolMessage: 'tool', FunctionMessage: 'tool', ChatMessage: 'user' };

function fromLangChain(item: unknown): ChatMessage {
  if (!isObject(item) || !Array.isArray(item.id) || !isObject(item.kwargs)) return { role: 'unknown', text: asText(item), raw: true };
  const className = String(item.id.at(-1));
  const kwargs = item.kwargs;
  const role = typeof kwargs.role === 'string' ? kwargs.role : Object.hasOwn(LANGCHAIN_ROLES, className) ? LANGCHAIN_ROLES[className] : 'unknown';
  return toMessage({ ...kwargs, role }, role);
}

/**
 * A bare list of tool calls (a model step's output when it only called tools): OpenAI's
 * `{id, type: "function", function: {name, arguments}}` or the AI SDK's `{toolCallId, toolName, args}`.
 */
function toolCallList(items: unknown[]): NonNullable<ChatMessage['toolCalls']> | null {
  if (items.length === 0) return null;
  const calls: NonNullable<ChatMessage['toolCalls']> = [];
  for (const item of items) {
    if (isObject(item) && isObject(item.function) && typeof item.function.name === 'string' && item.role === undefined) {
      calls.push({ id: optionalString(item.id), name: item.function.name, arguments: asText(item.function.arguments) });
    } else if (isObject(item) && typeof item.toolName === 'string') {
      calls.push({ id: optionalString(item.toolCallId), name: item.toolName, arguments: asText(item.args ?? item.input) });
    } else return null;
  }
  return calls;
}

function dropUndefined(message: ChatMessage): ChatMessage {
  if (message.raw === undefined) delete message.raw;
  return message;
}

function isMessageLike(item: unknown): item is Record<string, unknown> {
  return isObject(item) && (typeof item.role === 'string' || item.type === 'message' || item.type === 'function_call' || item.type === 'function_call_output');
}

/** Text and tool calls of one message in any of the shapes above. */
function toMessage(item: Record<string, unknown>, fallbackRole: string): ChatMessage {
  const role = typeof item.role === 'string' ? item.role : item.type === 'function_call_output' ? 'tool' : item.type === 'function_call' ? 'assistant' : fallbackRole;
  const texts: string[] = [];
  const toolCalls: NonNullable<ChatMessage['toolCalls']> = [];
  let toolCallId: string | undefined = typeof item.tool_call_id === 'string' ? item.tool_call_id : typeof item.call_id === 'string' && item.type === 'function_call_output' ? item.call_id : undefined;
  const blocks = Array.isArray(item.parts) ? item.parts : Array.isArray(item.content) ? item.content : undefined;
  if (blocks) {
    for (const block of blocks) {
      if (typeof block === 'string') texts.push(block);
      else if (isObject(block)) {
        const type = block.type;
        if (type === 'tool_call' || type === 'tool_use' || type === 'function_call') {
          toolCalls.push({ id: optionalString(block.id ?? block.call_id), name: asText(block.name), arguments: asText(block.arguments ?? block.input) });
        } else if (type === 'tool_call_response' || type === 'tool_result' || type === 'function_call_output') {
          toolCallId ??= optionalString(block.id ?? block.tool_use_id ?? block.call_id);
          texts.push(asText(block.response ?? block.result ?? block.content ?? block.output));
        } else {
          texts.push(asText(block.content ?? block.text ?? block.output_text ?? (type === 'image_url' || type === 'image' ? '[image]' : block)));
        }
      }
    }
  } else if (item.content !== undefined && item.content !== null) {
    texts.push(asText(item.content));
  }
  if (item.type === 'function_call') toolCalls.push({ id: optionalString(item.call_id ?? item.id), name: asText(item.name), arguments: asText(item.arguments) });
  if (item.type === 'function_call_output') texts.push(asText(item.output));
  // LangChain through Langfuse keeps OpenAI's calls in `additional_kwargs.tool_calls` (its own `tool_calls` may be absent or empty).
  const extra = isObject(item.additional_kwargs) ? item.additional_kwargs : undefined;
  const callList = Array.isArray(item.tool_calls) && item.tool_calls.length > 0 ? item.tool_calls : extra && Array.isArray(extra.tool_calls) ? extra.tool_calls : undefined;
  if (callList) {
    for (const call of callList) {
      if (!isObject(call)) continue;
      const fn = isObject(call.function) ? call.function : call;
      toolCalls.push({ id: optionalString(call.id), name: asText(fn.name), arguments: asText(fn.arguments ?? fn.args) });
    }
  }
  const message: ChatMessage = { role, text: texts.join('\n') };
  if (typeof item.name === 'string' && item.type !== 'function_call') message.name = item.name;
  if (toolCalls.length) message.toolCalls = toolCalls;
  if (toolCallId !== undefined) message.toolCallId = toolCallId;
  return message;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * Flattened messages: `prefix.N.message.role` (OpenInference) or `prefix.N.role` (deprecated
 * GenAI), rebuilt in numeric order of N (as text "10" sorts before "2").
 */
function readFlat(attributes: Record<string, unknown>, prefix: string, scheme: 'openinference' | 'genai'): ChatMessage[] {
  const byIndex = new Map<number, Record<string, unknown>>();
  const head = `${prefix}.`;
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(head)) continue;
    const rest = key.slice(head.length);
    const dot = rest.indexOf('.');
    const index = Number(dot < 0 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(index) || dot < 0) continue;
    let field = rest.slice(dot + 1);
    if (scheme === 'openinference') {
      if (!field.startsWith('message.')) continue;
      field = field.slice('message.'.length);
    }
    const entry = byIndex.get(index) ?? (Object.create(null) as Record<string, unknown>);
    entry[field] = value;
    byIndex.set(index, entry);
  }
  return [...byIndex.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, fields]) => flatMessage(fields));
}

function flatMessage(fields: Record<string, unknown>): ChatMessage {
  const texts: string[] = [];
  if (fields.content !== undefined) texts.push(asText(fields.content));
  const parts = collectIndexed(fields, 'contents');
  for (const part of parts) {
    const text = part['message_content.text'];
    if (text !== undefined) texts.push(asText(text));
    else if (part['message_content.type'] === 'image') texts.push('[image]');
  }
  const calls = collectIndexed(fields, 'tool_calls').map((call) => ({
    id: optionalString(call['tool_call.id'] ?? call.id),
    name: asText(call['tool_call.function.name'] ?? call.name),
    arguments: asText(call['tool_call.function.arguments'] ?? call.arguments),
  }));
  const message: ChatMessage = { role: typeof fields.role === 'string' ? fields.role : 'unknown', text: texts.join('\n') };
  if (typeof fields.name === 'string') message.name = fields.name;
  if (calls.length) message.toolCalls = calls;
  const callId = fields.tool_call_id;
  if (typeof callId === 'string') message.toolCallId = callId;
  return message;
}

/** `tool_calls.0.tool_call.id` and friends, grouped by index. */
function collectIndexed(fields: Record<string, unknown>, name: string): Record<string, unknown>[] {
  const byIndex = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(fields)) {
    if (!key.startsWith(`${name}.`)) continue;
    const rest = key.slice(name.length + 1);
    const dot = rest.indexOf('.');
    const index = Number(rest.slice(0, dot));
    if (dot < 0 || !Number.isInteger(index)) continue;
    const entry = byIndex.get(index) ?? (Object.create(null) as Record<string, unknown>);
    entry[rest.slice(dot + 1)] = value;
    byIndex.set(index, entry);
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}
