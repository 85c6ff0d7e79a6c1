/**
 * Reruns through the model host: every rerun is an `llm.chat` of the edited context (the request
 * built as a model step builds it), sent once, cached and counted by the host. Replicate r carries
 * the seed a model step would draw at the noise address (why's call, rerun r), so reruns differ
 * while the same rerun of the same context is the same request (a cache hit when repeated).
 *
 * With the call's recorded function definitions (`tools`) the context is sent natively (assistant
 * `tool_calls`, `tool` results answering them) with those tools, and an answer's own tool calls are
 * the decision; calls written in the text are read as a fallback, and said so. Without tools (a
 * run that recorded none, or `toolResults: "user"`), or once the endpoint refuses `tools` (HTTP
 * 400 naming them, said once), tool calls travel as text lines and are read back from the text.
 */
import { requestKey, isModelFailure } from '../engine/model-call.ts';
import { WorldNoise } from '../engine/noise.ts';
import { chatRequest } from '../engine/step-llm.ts';
import type { ChatMessage } from '../engine/model-call.ts';
import type { ModelHost } from '../model/index.ts';
import { nativeMessages } from '../runs/index.ts';
import type { WhyMessage } from './context.ts';
import { contentOf, parseReply, type Reply } from './decision.ts';
import type { Rerun } from './method.ts';

export interface HostRerunOptions {
  /** The model id sent. */
  model: string;
  /** The world seed the reruns' seeds are drawn from. */
  seed: number;
  /** Names the call in the noise address (its step index). */
  call: number;
  temperature?: number;
  maxTokens?: number;
  /** The case the host charges (default "why"). */
  caseId?: string;
  /**
   * How tool results are sent: as `tool` messages (default; local servers take them), or as `user`
   * messages headed "Tool result (NAME):", for hosted APIs that refuse a tool message without a
   * structured call before it.
   */
  toolResults?: 'tool' | 'user';
  /** The call's recorded function definitions, sent with every rerun (native tool calling). */
  tools?: readonly unknown[];
  topP?: number;
  stop?: readonly string[];
  /** Told once each: the endpoint refused tools (the reruns fell back to text), or an answer wrote its calls as text. */
  onNote?(note: string): void;
}

export class WhyRerunError extends Error {
  override name = 'WhyRerunError';
}

/** A request that cannot be built (a context over the prompt limit) is the rerun's error, not a crash. */
function buildRequest(build: () => ReturnType<typeof chatRequest>): ReturnType<typeof chatRequest> {
  try {
    return build();
  } catch (error) {
    throw new WhyRerunError(`the context cannot be sent: ${(error as Error).message}`);
  }
}

/** Noise slot of a rerun's seed, as a model step's chat seed (`#llm-seed`). */
const SLOT_SEED = '#llm-seed';

/** The context as text messages: tool calls as lines, tool results as tool messages (or user messages, headed). */
function textMessages(messages: readonly WhyMessage[], asUser: boolean): ChatMessage[] {
  return messages.map((m) => (asUser && m.role === 'tool' ? { role: 'user' as const, content: `Tool result${m.name ? ` (${m.name})` : ''}:\n${contentOf(m)}` } : { role: m.role, content: contentOf(m) }));
}

/** The context in OpenAI's shape: calls as `tool_calls` (ids made up), each result answering the first open call. */
function wireMessages(messages: readonly WhyMessage[]): ChatMessage[] {
  return nativeMessages(messages.map((m) => ({ role: m.role, text: m.text, ...(m.toolCalls && { toolCalls: m.toolCalls }) })));
}

/**
 * An endpoint's refusal of the `tools` field: HTTP 400 whose message names tools or tool calling
 * (Ollama: "... does not support tools"), or llama-server's own refusal without `--jinja`, which it
 * answers as HTTP 500 ("tools param requires --jinja flag", type server_error).
 */
export function refusesTools(error: string): boolean {
  if (/HTTP 500/.test(error)) return /tools param requires --jinja/.test(error);
  return /HTTP 400/.test(error) && /\btools\b|tool[ _-]?(calling|choice|use)|function[ _-]?calling/i.test(error);
}

export function hostRerun(host: ModelHost, options: HostRerunOptions): Rerun {
  const world = new WorldNoise(options.seed);
  const step = `why:${options.call}`;
  const caseId = options.caseId ?? 'why';
  let native = options.tools !== undefined && options.tools.length > 0 && options.toolResults !== 'user';
  let toldText = false;
  const note = (text: string) => options.onNote?.(text);
  const send = async (messages: readonly WhyMessage[], replicates: readonly number[], signal: AbortSignal | undefined) => {
    const chat = native ? wireMessages(messages) : textMessages(messages, options.toolResults === 'user');
    const requests = replicates.map((r) => {
      const request = buildRequest(() => chatRequest(
        {
          messages: chat,
          ...(options.temperature !== undefined && { temperature: options.temperature }),
          ...(options.topP !== undefined && { top_p: options.topP }),
          ...(options.maxTokens !== undefined && { max_tokens: options.maxTokens }),
          ...(options.stop !== undefined && { stop: options.stop }),
          ...(native && { tools: options.tools }),
          key: `run ${r}`,
        },
        options.model,
        (key) => Math.floor(world.uniform(step, key, SLOT_SEED) * 2 ** 31),
      ));
      return { key: requestKey(request), request, step, caseId };
    });
    return { requests, answers: await host.resolve(requests, signal) };
  };
  return async (messages, replicates, signal) => {
    let { requests, answers } = await send(messages, replicates, signal);
    const refused = native ? [...answers.values()].find((a) => isModelFailure(a) && refusesTools(a.error)) : undefined;
    if (refused && isModelFailure(refused)) {
      // Said once, then every rerun asks in text: the question changes (the tools are gone), so it is never silent.
      native = false;
      note(`the endpoint refuses the recorded tools (${refused.error.slice(0, 200)}): the reruns send tool calls and results as text and read the calls the model writes in its text`);
      ({ requests, answers } = await send(messages, replicates, signal));
    }
    return requests.map(({ key }): Reply => {
      const answer = answers.get(key);
      if (!answer) throw new WhyRerunError('the model host gave no answer for a rerun');
      if (isModelFailure(answer)) throw new WhyRerunError(`a rerun failed: ${answer.error}`);
      if (answer.toolCalls && answer.toolCalls.length > 0) return { text: answer.text, toolCalls: answer.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })) };
      const read = parseReply(answer.text);
      if (native && read.toolCalls.length > 0 && !toldText) {
        toldText = true;
        note('some answers wrote their tool calls in the text instead of calling the tools offered: those are read from the text (a model without tool support)');
      }
      return read;
    });
  };
}
