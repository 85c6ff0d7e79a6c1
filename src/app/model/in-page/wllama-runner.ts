/**
 * The in-page model's engine, loaded only when a model file is used (a dynamic import: neither the
 * library nor its 8.7 MB WebAssembly is in the first page's bundle). wllama runs llama.cpp compiled
 * to WebAssembly in a Web Worker of its own, single-threaded (the page is not cross-origin isolated);
 * this module only talks to that worker. Requests are rendered and answered as the command's
 * `--model-file` answers them (src/model/local-model.ts), so both give the same cache keys and answers.
 */
import { Wllama } from '@wllama/wllama';
// A same-origin file emitted by the build (never a CDN): the worker fetches and compiles it.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { ChatRequest, ModelResponse } from '../../../engine/model-call.ts';
import { cutAtStop, LOCAL_CONTEXT_TOKENS, localCompletion, localResponse } from '../../../model/index.ts';

export const WLLAMA_VERSION = '3.8.1';

export interface LoadedModel {
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ModelResponse>;
  close(): Promise<void>;
}

/** Raw completion fields read here (wllama answers as llama-server's `/completion`, with chat-style logprobs). */
interface RawAnswer {
  choices?: { text?: unknown; finish_reason?: unknown; logprobs?: { content?: { top_logprobs?: { token?: unknown; logprob?: unknown }[] }[] } | null }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/**
 * Load a GGUF file into a new wllama instance. Rejects after `timeoutMs` with `timeoutMessage`
 * (the library waits for ever when the worker cannot start, e.g. a policy refusing WebAssembly),
 * stopping its worker.
 */
export async function loadWllama(file: Blob, modelId: string, options: { timeoutMs: number; timeoutMessage: string }): Promise<LoadedModel> {
  const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, logger: { debug: () => {}, log: () => {}, warn: () => {}, error: () => {} } });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(options.timeoutMessage)), options.timeoutMs);
  });
  try {
    await Promise.race([wllama.loadModel([file], { n_ctx: LOCAL_CONTEXT_TOKENS, n_threads: 1, seed: 0, warmup: false }), timedOut]);
  } catch (error) {
    stopWorker(wllama);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    async complete(request, signal) {
      const c = localCompletion(request);
      const answer = (await wllama.createCompletion({
        prompt: c.prompt,
        // The library refuses a prompt longer than its context itself (the command checks it before).
        max_tokens: c.maxTokens,
        temperature: c.temperature,
        seed: c.seed,
        ...(c.topLogprobs > 0 && { logprobs: c.topLogprobs }),
        ...(c.stop.length > 0 && { stop: c.stop }),
        ...(signal && { abortSignal: signal }),
      })) as RawAnswer;
      const choice = answer.choices?.[0];
      if (!choice || typeof choice.text !== 'string') throw new Error('wllama gave no completion text');
      const cut = cutAtStop(choice.text, c.stop);
      const top = choice.logprobs?.content?.[0]?.top_logprobs
        ?.filter((t): t is { token: string; logprob: number } => typeof t.token === 'string' && typeof t.logprob === 'number');
      return localResponse(
        {
          text: cut.text,
          finish: cut.stopped || choice.finish_reason === 'stop' ? 'stop' : 'length',
          promptTokens: typeof answer.usage?.prompt_tokens === 'number' ? answer.usage.prompt_tokens : 0,
          outputTokens: typeof answer.usage?.completion_tokens === 'number' ? answer.usage.completion_tokens : 0,
          firstTop: top,
        },
        c,
        { model: modelId, fingerprint: `wllama-${WLLAMA_VERSION}` },
      );
    },
    async close() {
      await Promise.race([wllama.exit(), new Promise((resolve) => setTimeout(resolve, 2000))]);
      stopWorker(wllama);
    },
  };
}

/** End the library's worker even when it no longer answers (its `exit()` waits for the worker). */
function stopWorker(wllama: Wllama): void {
  const proxy = (wllama as unknown as { proxy?: { worker?: Worker } }).proxy;
  proxy?.worker?.terminate();
}
