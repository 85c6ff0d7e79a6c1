/**
 * Reruns through the model host: every rerun is an `llm.chat` of the edited context (the request
 * built as a model step builds it), sent once, cached and counted by the host. Replicate r carries
 * the seed a model step would draw at the noise address (why's call, rerun r), so reruns differ
 * while the same rerun of the same context is the same request (a cache hit when repeated).
 */
import { requestKey, isModelFailure } from '../engine/model-call.ts';
import { WorldNoise } from '../engine/noise.ts';
import { chatRequest } from '../engine/step-llm.ts';
import type { ModelHost } from '../model/index.ts';
import { contentOf, parseReply } from './decision.ts';
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

export function hostRerun(host: ModelHost, options: HostRerunOptions): Rerun {
  const world = new WorldNoise(options.seed);
  const step = `why:${options.call}`;
  const caseId = options.caseId ?? 'why';
  return async (messages, replicates, signal) => {
    const asUser = options.toolResults === 'user';
    const chat = messages.map((m) => (asUser && m.role === 'tool' ? { role: 'user' as const, content: `Tool result${m.name ? ` (${m.name})` : ''}:\n${contentOf(m)}` } : { role: m.role, content: contentOf(m) }));
    const requests = replicates.map((r) => {
      const request = buildRequest(() => chatRequest(
        { messages: chat, ...(options.temperature !== undefined && { temperature: options.temperature }), ...(options.maxTokens !== undefined && { max_tokens: options.maxTokens }), key: `run ${r}` },
        options.model,
        (key) => Math.floor(world.uniform(step, key, SLOT_SEED) * 2 ** 31),
      ));
      return { key: requestKey(request), request, step, caseId };
    });
    const answers = await host.resolve(requests, signal);
    return requests.map(({ key }) => {
      const answer = answers.get(key);
      if (!answer) throw new WhyRerunError('the model host gave no answer for a rerun');
      if (isModelFailure(answer)) throw new WhyRerunError(`a rerun failed: ${answer.error}`);
      return parseReply(answer.text);
    });
  };
}
