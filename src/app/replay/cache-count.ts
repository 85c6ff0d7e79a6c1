/**
 * How many of a replay's model requests this browser's response cache answers, before any is
 * sent: the replay is analysed with a resolver that answers from the store and, for a request the
 * store lacks, with a stand-in unique to that request (so the turns after it ask what they would
 * ask of a new answer, and are counted too), never the endpoint. When the store answers every
 * request, `total` is exactly what the analysis will ask with these settings, all from the cache;
 * otherwise it is an upper bound, as a new answer that repeats the recorded one leaves the turns
 * after it as recorded, where a stand-in never does.
 */
import { NO_USAGE, type ModelAnswer, type ModelResponse, type ModelUsage, type ChatRequest, type PendingRequest } from '../../engine/model-call.ts';
import type { ModelResolver } from '../../pool/contract.ts';
import type { AsyncResponseStore } from '../../model/index.ts';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** What stands in for a response the store lacks: text unique to the request; every option equally likely for a choice. */
export function standIn(request: ChatRequest, key: string): ModelResponse {
  if (request.logprobs) return { text: 'A', finish: 'length', usage: { input: 0, output: 0 }, topLogprobs: [...LETTERS].map((token) => ({ token, logprob: -Math.log(LETTERS.length) })) };
  return { text: `(not cached yet: ${key.slice(0, 16)})`, finish: 'stop', usage: { input: 0, output: 0 } };
}

export class CacheCountResolver implements ModelResolver {
  readonly #store: Pick<AsyncResponseStore, 'getMany'>;
  readonly #answers = new Map<string, ModelResponse>();
  readonly #cached = new Set<string>();

  constructor(store: Pick<AsyncResponseStore, 'getMany'>) {
    this.#store = store;
  }

  /** Distinct requests asked so far. */
  get total(): number {
    return this.#answers.size;
  }

  /** Of those, the ones the store answers. */
  get answered(): number {
    return this.#cached.size;
  }

  async resolve(requests: (PendingRequest & { caseId: string })[]): Promise<Map<string, ModelAnswer>> {
    const fresh = [...new Set(requests.map((r) => r.key))].filter((key) => !this.#answers.has(key));
    const found = fresh.length > 0 ? await this.#store.getMany(fresh).catch(() => new Map()) : new Map();
    const out = new Map<string, ModelAnswer>();
    for (const { key, request } of requests) {
      let answer = this.#answers.get(key);
      if (!answer) {
        const stored = found.get(key) as { response: ModelResponse } | undefined;
        if (stored) this.#cached.add(key);
        answer = stored?.response ?? standIn(request, key);
        this.#answers.set(key, answer);
      }
      out.set(key, answer);
    }
    return out;
  }

  usage(): ModelUsage {
    return { ...NO_USAGE };
  }
}
