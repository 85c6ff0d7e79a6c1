/**
 * The decision why explains: a predicate on a model reply. It calls tool `tool` (with `match` on
 * its arguments, when given), or, for a call that makes no tool call, its text matches `match`.
 */
import type { WhyMessage, WhyToolCall } from './context.ts';
import { WhySelectionError } from './selection-error.ts';

export interface Predicate {
  tool?: string;
  /** A regular expression (JavaScript syntax): on the tool call's arguments, or on the text. */
  match?: string;
}

/** One rerun's answer: its text and the tool calls in it. */
export interface Reply {
  text: string;
  toolCalls: WhyToolCall[];
}

let linearEngine: boolean | undefined;

/**
 * Whether this engine has V8's linear-time matcher (the `l` flag), which the command turns on
 * (src/cli/why-command.ts): a pattern from a shared check file must not run for hours on the host.
 */
function hasLinearEngine(): boolean {
  if (linearEngine === undefined) {
    try {
      linearEngine = new RegExp('', 'l').flags === 'l';
    } catch {
      linearEngine = false;
    }
  }
  return linearEngine;
}

/**
 * The regular expression of `match`, or a WhySelectionError of the match saying what is wrong. Where the engine has a linear-time
 * matcher (the command), the pattern is compiled for it, so no answer can make it backtrack for
 * hours; a pattern it cannot run in linear time (backreferences, lookarounds, large counted
 * repeats) is refused.
 */
export function compileMatch(match: string): RegExp {
  let plain: RegExp;
  try {
    plain = new RegExp(match);
  } catch (error) {
    throw new WhySelectionError('match', `"${match}" is not a regular expression (${(error as Error).message})`);
  }
  if (!hasLinearEngine()) return plain;
  try {
    return new RegExp(match, 'l');
  } catch {
    throw new WhySelectionError('match', `"${match}" cannot be matched in linear time (no backreferences, lookarounds or large counted repeats such as {0,200}): write it without them`);
  }
}

/** Whether the reply makes the decision. */
export function decides(predicate: Predicate, reply: Reply): boolean {
  const re = predicate.match === undefined ? undefined : compileMatch(predicate.match);
  if (predicate.tool !== undefined) return reply.toolCalls.some((c) => c.name === predicate.tool && (re === undefined || re.test(c.arguments)));
  return re !== undefined && re.test(reply.text);
}

export function describePredicate(predicate: Predicate): string {
  if (predicate.tool !== undefined) return `calls ${predicate.tool}${predicate.match === undefined ? '' : ` with arguments matching /${predicate.match}/`}`;
  return `replies with text matching /${predicate.match ?? ''}/`;
}

/** What a reply does, in a few words ("calls escalate_to_manager", "replies in text", "says nothing"). */
export function actionOf(reply: Reply): string {
  if (reply.toolCalls.length > 0) return `calls ${[...new Set(reply.toolCalls.map((c) => c.name))].join(', ')}`;
  return reply.text.trim() === '' ? 'says nothing' : 'replies in text';
}

/** The most frequent action among the replies that do not make the decision (null when all make it). */
export function insteadOf(predicate: Predicate, replies: readonly Reply[]): string | null {
  const counts = new Map<string, number>();
  for (const r of replies) if (!decides(predicate, r)) counts.set(actionOf(r), (counts.get(actionOf(r)) ?? 0) + 1);
  let best: string | null = null;
  let most = 0;
  for (const [action, n] of counts) if (n > most) [best, most] = [action, n];
  return best;
}

/**
 * How a tool call is written into a rerun's text context: the chat requests the model host sends
 * are plain role/content messages, so an earlier turn's tool calls are shown as lines, and a
 * rerun's tool calls are read back from the same lines (or from a JSON object with a `name`,
 * which local models tend to write).
 */
export function toolCallLine(call: WhyToolCall): string {
  return `tool call: ${call.name} ${call.arguments}`;
}

// Spaces within a line only (never \s, which crosses lines): a pattern whose leading \s* spans
// newlines restarts at every line and scans all the following blank lines, quadratic in them.
const CALL_LINE = /^[^\S\n\r\u2028\u2029]*tool call:[^\S\n\r\u2028\u2029]*([A-Za-z_][\w.-]*)[^\S\n\r\u2028\u2029]*(.*)$/gm;

/** A reply's tool calls, from its text. */
export function parseReply(text: string): Reply {
  const toolCalls: WhyToolCall[] = [];
  for (const m of text.matchAll(CALL_LINE)) toolCalls.push({ name: m[1], arguments: m[2].trim() || '{}' });
  if (toolCalls.length === 0) {
    for (const value of jsonObjectsIn(text)) {
      const fn = isRecord(value.function) ? value.function : value;
      if (typeof fn.name === 'string' && /^[A-Za-z_][\w.-]*$/.test(fn.name)) {
        const args = fn.arguments ?? fn.parameters ?? fn.args ?? {};
        toolCalls.push({ name: fn.name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
      }
    }
  }
  return { text, toolCalls };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const JSON_OPEN = /\{[ \t\n\r]*["}]/y;

/** Top-level JSON objects written in a text (balanced braces outside strings), those that parse (the first 16; none after 64 that do not). */
function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let failed = 0;
  for (let i = text.indexOf('{'); i >= 0 && out.length < 16; ) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = i; j < text.length; j++) {
      const ch = text[j];
      if (inString) {
        if (ch === '\\') j++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end < 0) break;
    // Only a brace that can open a JSON object ({} or {"key") is parsed, and only so many that
    // fail: a long answer of braces that are not JSON would otherwise cost an exception each.
    JSON_OPEN.lastIndex = i;
    if (JSON_OPEN.test(text)) {
      try {
        const value: unknown = JSON.parse(text.slice(i, end + 1));
        if (isRecord(value)) out.push(value);
      } catch {
        if (++failed >= 64) break;
      }
    }
    i = text.indexOf('{', end + 1);
  }
  return out;
}

/** A message's content as sent in a rerun: its text, then its tool calls as lines. */
export function contentOf(message: WhyMessage): string {
  const calls = (message.toolCalls ?? []).map(toolCallLine);
  return [message.text, ...calls].filter((t) => t !== '').join('\n');
}
