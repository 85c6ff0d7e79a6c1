/**
 * Recorded messages as OpenAI-compatible endpoints take them (docs/replay.md, "The message
 * model"): the one message model of replay and why, with tool calls as `tool_calls` and results
 * as `tool` messages that name the call they answer.
 */
import type { LlmMessage } from '../engine/types.ts';
import type { ChatMessage } from './types.ts';

/** A tool call written out as text (where a message cannot carry it natively). */
export function callText(call: { name: string; arguments: string }): string {
  return `[tool call] ${call.name}(${call.arguments})`;
}

/** JSON text parsed, or undefined when it is not an object or array in JSON. */
export function parseJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** The same text, or the same JSON value however it is spaced (runtape records pretty, contexts quote compact). */
export function sameContent(a: string, b: string): boolean {
  if (a.trim() === b.trim()) return true;
  const x = parseJson(a);
  return x !== undefined && JSON.stringify(x) === JSON.stringify(parseJson(b));
}

/** Arguments as the wire carries them: JSON text; a value the reader pretty-printed is made compact again. */
export function wireArguments(text: string): string {
  if (!text.includes('\n')) return text;
  const value = parseJson(text);
  return value === undefined ? text : JSON.stringify(value);
}

const ROLE_OF: Record<string, LlmMessage['role']> = { system: 'system', developer: 'system', user: 'user', human: 'user', assistant: 'assistant', ai: 'assistant', model: 'assistant', tool: 'tool', function: 'tool', ipython: 'tool' };

/**
 * A recorded request as the messages an OpenAI-compatible endpoint takes: an assistant's tool
 * calls as `tool_calls` (an id made up, `call_M_K`, where the record has none), each tool result
 * as a `tool` message with the id of the call it answers (its recorded id, else the first call
 * still unanswered). A result that answers no call before it travels as a user message, since
 * endpoints refuse a tool message without its call.
 */
export function nativeMessages(recorded: readonly Pick<ChatMessage, 'role' | 'text' | 'toolCalls' | 'toolCallId'>[]): LlmMessage[] {
  const known = new Set<string>();
  let open: string[] = [];
  return recorded.map((m, i): LlmMessage => {
    const role = Object.hasOwn(ROLE_OF, m.role.toLowerCase()) ? ROLE_OF[m.role.toLowerCase()] : 'user';
    const answers = m.toolCallId !== undefined && known.has(m.toolCallId) ? m.toolCallId : undefined;
    if (role === 'tool' || answers !== undefined) {
      const id = answers ?? open[0];
      if (id === undefined) return { role: 'user', content: `[tool result] ${m.text}` };
      open = open.filter((o) => o !== id);
      return { role: 'tool', content: m.text, tool_call_id: id };
    }
    if (role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      const calls = m.toolCalls.map((c, k) => ({ id: c.id !== undefined && c.id !== '' && !known.has(c.id) ? c.id : `call_${i}_${k}`, type: 'function' as const, function: { name: c.name, arguments: wireArguments(c.arguments) } }));
      for (const c of calls) known.add(c.id);
      open = calls.map((c) => c.id);
      return { role, content: m.text, tool_calls: calls };
    }
    // Calls on a message that cannot carry them (a user's) stay written out, as the record shows them.
    const parts = [m.text, ...(m.toolCalls ?? []).map(callText)].filter((p) => p !== '');
    return { role, content: parts.join('\n') };
  });
}

