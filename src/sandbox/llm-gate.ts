import type { Llm, LlmChatArgs, LlmChatResult, LlmChooseArgs, LlmMessage, StepTools } from '../engine/types.ts';

/**
 * The one `llm` object a compiled definition ever sees (docs/model-steps.md): a hardened facade that
 * forwards to the engine's Llm of the step call in progress. Arguments are copied into plain data
 * before they reach the engine and results are fresh frozen objects, so user code never holds an
 * engine object. The facade has no network: the engine only looks responses up, and a miss
 * suspends the step while the host (outside the sandbox) fetches it.
 */
export interface LlmGate {
  /** The tools object handed to user runs as their third argument. */
  readonly tools: StepTools;
  enter(llm: Llm | undefined): Llm | null;
  exit(previous: Llm | null): void;
}

export function makeLlmGate(): LlmGate {
  let current: Llm | null = null;
  const active = (): Llm => {
    if (current === null) throw new Error('llm is only available while a step runs (not at the top level of the definition, nor in the metric)');
    return current;
  };
  const llm: Llm = harden({
    chat: (args: LlmChatArgs): LlmChatResult => {
      const result = active().chat(copyChatArgs(args));
      const calls = result.toolCalls ? { toolCalls: result.toolCalls.map((c) => ({ ...(c.id !== undefined && { id: c.id }), name: c.name, arguments: c.arguments })) } : {};
      return harden({ text: result.text, finish: result.finish, usage: { input: result.usage.input, output: result.usage.output }, ...calls });
    },
    choose: (args: LlmChooseArgs): string => active().choose(copyChooseArgs(args)),
  });
  const tools: StepTools = harden({ llm });
  return {
    tools,
    enter(next) {
      const previous = current;
      current = next ?? null;
      return previous;
    },
    exit(previous) {
      current = previous;
    },
  };
}

function record(value: unknown, call: string, shape: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${call} needs an object ${shape}`);
  return value as Record<string, unknown>;
}

function copyMessages(value: unknown, call: string): LlmMessage[] {
  if (!Array.isArray(value)) throw new TypeError(`${call}: messages must be an array of { role, content }`);
  return Array.from(value, (m: unknown, i: number) => {
    const message = record(m, `${call}: messages[${i}]`, '{ role, content }');
    const out: LlmMessage = { role: message.role as LlmMessage['role'], content: message.content as string };
    // Tool calls are plain data: a JSON copy keeps nothing of the user's objects (the engine checks their shape).
    if (message.tool_calls !== undefined) out.tool_calls = Array.isArray(message.tool_calls) ? (JSON.parse(JSON.stringify(message.tool_calls)) as LlmMessage['tool_calls']) : (message.tool_calls as LlmMessage['tool_calls']);
    if (message.tool_call_id !== undefined) out.tool_call_id = message.tool_call_id as string;
    return out;
  });
}

function copyStrings(value: unknown, call: string, what: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new TypeError(`${call}: ${what} must be an array of strings`);
  return Array.from(value, (s: unknown) => s as string);
}

/** Own data read once: later getters or mutations in user code cannot change what the engine saw. */
function copyChatArgs(args: unknown): LlmChatArgs {
  const call = 'llm.chat';
  const a = record(args, call, '{ messages, model?, temperature?, top_p?, max_tokens?, stop?, key?, tools? }');
  const copy: LlmChatArgs = { messages: copyMessages(a.messages, call) };
  if (a.model !== undefined) copy.model = a.model as string;
  if (a.temperature !== undefined) copy.temperature = a.temperature as number;
  if (a.top_p !== undefined) copy.top_p = a.top_p as number;
  if (a.max_tokens !== undefined) copy.max_tokens = a.max_tokens as number;
  const stop = copyStrings(a.stop, call, 'stop');
  if (stop !== undefined) copy.stop = stop;
  if (a.key !== undefined) copy.key = a.key as string;
  // Function definitions are plain data: a JSON copy keeps nothing of the user's objects.
  if (a.tools !== undefined) copy.tools = Array.isArray(a.tools) ? (JSON.parse(JSON.stringify(a.tools)) as unknown[]) : (a.tools as unknown[]);
  return copy;
}

function copyChooseArgs(args: unknown): LlmChooseArgs {
  const call = 'llm.choose';
  const a = record(args, call, '{ messages, options, model?, key? }');
  const copy: LlmChooseArgs = { messages: copyMessages(a.messages, call), options: copyStrings(a.options, call, 'options') ?? (undefined as unknown as string[]) };
  if (a.model !== undefined) copy.model = a.model as string;
  if (a.key !== undefined) copy.key = a.key as string;
  return copy;
}
