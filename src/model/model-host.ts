import { NO_USAGE, requestKey, type ChatRequest, type ModelAnswer, type ModelFailure, type ModelResponse, type ModelUsage, type PendingRequest } from '../engine/model-call.ts';
import { sendChat, type SendOptions } from './connector.ts';
import type { EndpointConfig } from './endpoint.ts';
import { ModelEndpointError, ModelRequestCancelled } from './endpoint-error.ts';
import { MemoryResponseCache, type CacheEntry, type ResponseCache } from './response-cache.ts';
import { raceAbort } from './race-abort.ts';
import { unusableAnswer } from './unusable-answer.ts';
import { ConcurrencyGovernor } from './concurrency-governor.ts';
import { probeServedIdentity } from './served-identity.ts';
import { servedMismatch } from './served-mismatch.ts';
import type { LocalModel } from './local-model.ts';

/** A pending request and the case that asked for it (for accounting). */
export type HostRequest = PendingRequest & { caseId: string };

/** Where the host's requests stand, for the progress shown by the page and the command. */
export interface ModelProgress {
  /** Waiting for a free slot. */
  queued: number;
  /** Sent, no answer yet (retries included). */
  inFlight: number;
  /** Answered by the endpoint (failures included). */
  done: number;
  /** Of those, failures. */
  failed: number;
  /** Distinct requests answered from the cache. */
  cacheHits: number;
  /** Requests are waiting for the user's go (`askAbove` was reached); `release()` sends them. */
  held: boolean;
}

/**
 * One distinct request as the host settled it, for a request log: answered from the cache (the
 * first time a key was needed) or sent (with its latency, tokens and error). Carries no header and
 * so never the endpoint's key; `error` is the host's message, which may quote the endpoint's.
 */
export interface RequestRecord {
  key: string;
  /** The case charged for it (the first that needed it) and the step that asked. */
  caseId: string;
  step: string;
  model: string;
  /** The request's seed (a sampled turn's noise address), when it has one. */
  seed?: number;
  /** Whether the request asked for log-probabilities (a judge's `llm.choose`). */
  choice: boolean;
  source: 'cache' | 'sent' | 'cancelled';
  /** From sending to the answer (retries included), in ms; sent requests only. */
  latencyMs?: number;
  inputTokens: number;
  outputTokens: number;
  /** Why it failed (sent requests only). */
  error?: string;
  /** The last message sent and the answer's text, each cut to a few hundred characters. */
  prompt: string;
  answer: string;
}

export interface ModelHostOptions {
  /** Responses known before the run, and where new ones go (default: a fresh memory cache). */
  cache?: ResponseCache;
  /** The endpoint; without it (or with `offline`) nothing is sent and a miss is a failure. */
  endpoint?: EndpointConfig;
  /** Send nothing: a request missing from the cache is a ModelFailure. */
  offline?: boolean;
  /**
   * A model file run here (the page's in-page model, the command's --model-file): requests whose
   * model id it handles go to it instead of the endpoint, through the same queue, cache and accounting.
   */
  local?: LocalModel;
  /** The connector's injectables (fetch, sleep, random, clock), for tests. */
  send?: Pick<SendOptions, 'fetch' | 'sleep' | 'random' | 'now'>;
  /** Called whenever the progress changes. */
  onProgress?(progress: ModelProgress): void;
  /** Called once per distinct request settled: answered from the cache, sent and answered (or failed), or cancelled. */
  onRequest?(record: RequestRecord): void;
  /**
   * A slower store behind the cache (the page's IndexedDB): keys the cache lacks are looked up
   * there before anything is sent, and every new response is written there as it arrives.
   */
  store?: AsyncResponseStore;
  /**
   * Problems that fail no case: the store could not be read or written, the endpoint is overloaded
   * (fewer requests are sent at once), cached answers came from another model than the one now served.
   */
  onWarning?(message: string): void;
  /**
   * Send at most this many requests on the host's own say: later ones wait (progress `held`) until
   * `release()`, so the page can ask before a large, paid run, having shown what the cache answered.
   */
  askAbove?: number;
}

/** An asynchronous response store (the page's IndexedDB ResponseStore has this shape). */
export interface AsyncResponseStore {
  getMany(keys: readonly string[]): Promise<Map<string, CacheEntry>>;
  putMany(entries: readonly CacheEntry[]): Promise<void>;
}

interface Flight {
  key: string;
  request: ChatRequest;
  /** The case charged for it: the first that needed it, and the step that asked. */
  caseId: string;
  step: string;
  /** When it was sent (the host's clock), for its latency. */
  sentAt: number;
  controller: AbortController;
  /** Callers still waiting for it; when the last one cancels, the request is aborted. */
  waiters: number;
  state: 'queued' | 'running';
  promise: Promise<ModelAnswer>;
  settle(answer: ModelAnswer | ModelRequestCancelled): void;
}

/**
 * The model host of a pool's owner (the command's main thread, the page's main thread): every
 * request any case waits for goes through `resolve`. Answers come from the cache when it has
 * them; otherwise each distinct request is sent once for the host's life, with at most
 * `concurrency` in flight, through one queue shared by all callers, so cases that need the same
 * request at the same time share one request in flight. Failures are remembered for the host's
 * life (one failing request is not sent again for every case) and returned as ModelFailure.
 * Each request is charged to the first case that needed it: either as a request sent (with the
 * endpoint's token counts) or as a cache hit.
 */
export class ModelHost {
  readonly cache: ResponseCache;
  private readonly endpoint: EndpointConfig | undefined;
  private readonly local: LocalModel | undefined;
  private readonly offline: boolean;
  private readonly send: ModelHostOptions['send'];
  private readonly onProgress: ModelHostOptions['onProgress'];
  private readonly onRequest: ModelHostOptions['onRequest'];
  private readonly store: AsyncResponseStore | undefined;
  private readonly onWarning: ModelHostOptions['onWarning'];
  private readonly flights = new Map<string, Flight>();
  private readonly queue: Flight[] = [];
  /** Answers got in this host's life (also when the cache could not keep them), and failures. */
  private readonly answered = new Map<string, ModelAnswer>();
  /** Keys already charged to some case. */
  private readonly charged = new Set<string>();
  private readonly perCase = new Map<string, ModelUsage>();
  private running = 0;
  private done = 0;
  private failed = 0;
  private cacheHits = 0;
  /** Requests started so far (each distinct one once). */
  private started = 0;
  private askAbove: number;
  /** Requests in flight at once: the endpoint's concurrency, lowered while it times out or says 429/503. */
  private readonly governor: ConcurrencyGovernor | null;
  /** Attempts in flight (retries included), held to the governor's limit, and those waiting for a leave. */
  private attempts = 0;
  private readonly attemptWaiters: (() => void)[] = [];
  /** Per model id: what the endpoint lists as serving it (probed once), or null when it lists nothing. */
  private readonly identities = new Map<string, Promise<void>>();
  private readonly identityOf = new Map<string, string | null>();
  /** Per model id: the `model` the endpoint's latest answer reported. */
  private readonly lastServed = new Map<string, string>();
  /** Model ids whose cached answers were found to come from another model (warned once each). */
  private readonly mismatchWarned = new Set<string>();

  constructor(options: ModelHostOptions = {}) {
    this.cache = options.cache ?? new MemoryResponseCache();
    this.endpoint = options.endpoint;
    this.local = options.local;
    this.offline = options.offline ?? false;
    this.send = options.send;
    this.onProgress = options.onProgress;
    this.onRequest = options.onRequest;
    this.store = options.store;
    this.onWarning = options.onWarning;
    this.askAbove = options.askAbove ?? Infinity;
    // A model file answers one request at a time; an endpoint as many as its concurrency.
    this.governor = options.endpoint ? new ConcurrencyGovernor(options.endpoint.concurrency) : options.local ? new ConcurrencyGovernor(1) : null;
  }

  /**
   * Whether a request the cache lacks can be sent to an endpoint (and not offline). A `local`
   * model file answers the requests of its ids either way: they never wait for an endpoint.
   */
  get hasEndpoint(): boolean {
    return this.endpoint !== undefined && !this.offline;
  }

  /** Whether this request goes to the model file rather than the endpoint. */
  private isLocal(request: ChatRequest): boolean {
    return this.local?.handles(request.model) ?? false;
  }

  /** Who answers a request, for messages: the endpoint's base URL or the model file. */
  private answerer(request: ChatRequest): string {
    return this.isLocal(request) ? this.local!.describe(request.model) : `model endpoint ${this.endpoint?.baseUrl ?? '(none)'}`;
  }

  /** Requests sent at once now (the endpoint's concurrency unless it was lowered). */
  get concurrency(): number {
    return this.governor?.limit ?? 0;
  }

  /**
   * Answers for the requests, by key: a response, or a ModelFailure naming why (the endpoint's
   * message, or offline). Rejects with ModelRequestCancelled when `signal` aborts or `cancel()`
   * is called while it waits; requests nobody else waits for are then aborted.
   */
  async resolve(requests: readonly HostRequest[], signal?: AbortSignal): Promise<Map<string, ModelAnswer>> {
    if (signal?.aborted) throw new ModelRequestCancelled();
    if (this.store) await raceAbort(this.loadFromStore(requests), signal);
    if (this.endpoint && !this.offline) await raceAbort(this.probeIdentities(requests), signal);
    const out = new Map<string, ModelAnswer>();
    const waiting: Flight[] = [];
    let progressed = false;
    for (const pending of requests) {
      const { key, request, caseId, step } = pending;
      if (out.has(key) || waiting.some((f) => f.key === key)) continue;
      // Keys come from the workers: a key that is not its request's could poison the cache.
      if (requestKey(request) !== key) {
        out.set(key, { error: 'internal: a request arrived with a key that is not its own' });
        continue;
      }
      const known = this.answered.get(key) ?? this.usableCached(key, request);
      if (known) {
        if (!this.answered.has(key)) this.checkServed(request.model, known);
        if (!this.charged.has(key)) {
          this.charged.add(key);
          // The tokens the cached answer cost when it was fetched: a rerun shows what its answers cost.
          const usage = isResponse(known) ? known.usage : { input: 0, output: 0 };
          this.charge(caseId, { cacheHits: 1, inputTokens: usage.input, outputTokens: usage.output });
          this.cacheHits++;
          this.record({ key, request, caseId, step }, 'cache', known);
          progressed = true;
        }
        out.set(key, known);
        continue;
      }
      if (this.offline || (!this.endpoint && !this.isLocal(request))) {
        const which = `(model "${request.model}", key ${key.slice(0, 12)})`;
        out.set(key, { error: this.offline ? `offline: no cached response for this request ${which}` : `no cached response for this request ${which}, and no model endpoint is set up to ask (the command: --model-url URL; the page: Settings > Model)` });
        continue;
      }
      let flight = this.flights.get(key);
      if (!flight) {
        flight = this.enqueue(key, request, caseId, step);
        progressed = true;
      }
      waiting.push(flight);
    }
    if (waiting.length === 0) {
      if (progressed) this.report();
      return out;
    }
    // pump() reports the progress, with the new requests already started.
    this.pump();
    for (const flight of waiting) flight.waiters++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      for (const flight of waiting) {
        flight.waiters--;
        if (flight.waiters === 0 && this.flights.get(flight.key) === flight) this.abortFlight(flight);
      }
    };
    signal?.addEventListener('abort', leave, { once: true });
    try {
      const answers = await raceAbort(Promise.all(waiting.map((f) => f.promise)), signal);
      waiting.forEach((flight, k) => out.set(flight.key, answers[k]));
      left = true;
      for (const flight of waiting) flight.waiters--;
      return out;
    } catch (error) {
      leave();
      throw error;
    } finally {
      signal?.removeEventListener('abort', leave);
    }
  }

  /**
   * The cached answer of a key, unless it cannot serve its request (a choose answer without
   * log-probabilities or option letters, cached before such answers were refused): that one is asked again.
   */
  private usableCached(key: string, request: ChatRequest): ModelResponse | undefined {
    const cached = this.cache.get(key);
    return cached && unusableAnswer(request, cached) === null ? cached : undefined;
  }

  /** Ask the endpoint once per model id what serves it (llama.cpp's model file), before its answers are used. */
  private async probeIdentities(requests: readonly HostRequest[]): Promise<void> {
    const ids = [...new Set(requests.filter((r) => !this.isLocal(r.request)).map((r) => r.request.model))];
    for (const id of ids) {
      if (this.identities.has(id)) continue;
      this.identities.set(id, probeServedIdentity(this.endpoint!, id, this.send?.fetch ?? globalThis.fetch).then((identity) => void this.identityOf.set(id, identity)));
    }
    await Promise.all(ids.map((id) => this.identities.get(id)));
  }

  /** Warn (once per model id) when a cached answer says another model served it than the endpoint serves now. */
  private checkServed(modelId: string, answer: ModelAnswer): void {
    if (!this.endpoint || this.offline || !isResponse(answer) || this.mismatchWarned.has(modelId) || this.local?.handles(modelId)) return;
    const why = servedMismatch(answer.served, this.identityOf.get(modelId) ?? null, this.lastServed.get(modelId) ?? null, modelId);
    if (why === null) return;
    this.mismatchWarned.add(modelId);
    this.onWarning?.(why);
  }

  /** Put into the cache what the store holds of the keys nobody knows yet (unreadable store: nothing). */
  private async loadFromStore(requests: readonly HostRequest[]): Promise<void> {
    const missing = [...new Set(requests.map((r) => r.key))].filter((key) => !this.answered.has(key) && !this.cache.has(key) && !this.flights.has(key));
    if (missing.length === 0) return;
    let found: Map<string, CacheEntry>;
    try {
      found = await this.store!.getMany(missing);
    } catch (error) {
      this.onWarning?.(`the response store could not be read (${error instanceof Error ? error.message : String(error)}); missing responses are requested`);
      return;
    }
    for (const entry of found.values()) {
      // The store is this browser's own, but a key must still be its request's before it answers anything,
      // and an unusable answer stored before such answers were refused is asked again.
      if (!this.cache.has(entry.key) && requestKey(entry.request) === entry.key && unusableAnswer(entry.request, entry.response) === null) this.cache.put(entry.key, entry.request, entry.response);
    }
  }

  /** Requests, cache hits and tokens charged to one case. */
  usage(caseId: string): ModelUsage {
    return { ...(this.perCase.get(caseId) ?? NO_USAGE) };
  }

  /** The sum over every case. */
  totalUsage(): ModelUsage {
    const total = { ...NO_USAGE };
    for (const u of this.perCase.values()) {
      total.requests += u.requests;
      total.cacheHits += u.cacheHits;
      total.inputTokens += u.inputTokens;
      total.outputTokens += u.outputTokens;
    }
    return total;
  }

  progress(): ModelProgress {
    return { queued: this.queue.length, inFlight: this.running, done: this.done, failed: this.failed, cacheHits: this.cacheHits, held: this.held() };
  }

  /** Send what waits for the user's go, and everything after it. */
  release(): void {
    this.askAbove = Infinity;
    if (this.governor) this.pump();
  }

  private held(): boolean {
    return this.queue.length > 0 && this.started >= this.askAbove;
  }

  /** Abort every request queued or in flight; their callers reject with ModelRequestCancelled. The host stays usable. */
  cancel(): void {
    for (const flight of [...this.flights.values()]) this.abortFlight(flight);
  }

  private enqueue(key: string, request: ChatRequest, caseId: string, step: string): Flight {
    let settle!: Flight['settle'];
    const promise = new Promise<ModelAnswer>((resolve, reject) => {
      settle = (answer) => (answer instanceof ModelRequestCancelled ? reject(answer) : resolve(answer));
    });
    // A cancelled flight nobody awaits any more must not be an unhandled rejection.
    promise.catch(() => {});
    const flight: Flight = { key, request, caseId, step, sentAt: 0, controller: new AbortController(), waiters: 0, state: 'queued', promise, settle };
    this.flights.set(key, flight);
    this.queue.push(flight);
    return flight;
  }

  private abortFlight(flight: Flight): void {
    this.flights.delete(flight.key);
    if (flight.state === 'running') this.record(flight, 'cancelled', null);
    if (flight.state === 'queued') {
      const at = this.queue.indexOf(flight);
      if (at >= 0) this.queue.splice(at, 1);
    }
    flight.controller.abort();
    flight.settle(new ModelRequestCancelled());
    this.report();
  }

  /** Start queued requests while slots are free. */
  private pump(): void {
    while (this.running < this.governor!.limit && this.queue.length > 0 && this.started < this.askAbove) {
      const flight = this.queue.shift()!;
      flight.state = 'running';
      flight.sentAt = this.now();
      this.running++;
      this.started++;
      const answer = this.isLocal(flight.request)
        ? this.local!.complete(flight.request, flight.controller.signal)
        : sendChat(this.endpoint!, flight.request, { ...this.send, signal: flight.controller.signal, onRetry: (retry) => this.onRetry(retry.overloaded), permit: (signal) => this.permit(signal) });
      void answer.then(
        (response) => this.finish(flight, response),
        (error: unknown) => this.finish(flight, error),
      );
    }
    this.report();
  }

  /** A leave for one attempt once fewer than the governor's limit are in flight; resolves with its release. */
  private permit(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve) => {
      const go = () => {
        // A request cancelled while it waited takes no leave (its sendChat has given up on this one).
        if (signal?.aborted) {
          resolve(() => {});
          return;
        }
        this.attempts++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.attempts--;
          this.wakeAttempts();
        });
      };
      if (this.attempts < this.governor!.limit) go();
      else this.attemptWaiters.push(go);
    });
  }

  private wakeAttempts(): void {
    while (this.attemptWaiters.length > 0 && this.attempts < this.governor!.limit) this.attemptWaiters.shift()!();
  }

  /** A retry: an overloaded endpoint gets fewer requests at once (never fewer than one). */
  private onRetry(overloaded: boolean): void {
    if (!overloaded) return;
    const lowered = this.governor!.overloaded();
    if (lowered !== null) this.onWarning?.(`the model endpoint ${this.endpoint!.baseUrl} is overloaded (a time-out, or HTTP 429/503): ${lowered} request${lowered === 1 ? '' : 's'} in flight from now on (the command: --concurrency ${lowered} avoids this; the page: Model > Requests at once)`);
  }

  private finish(flight: Flight, outcome: ModelResponse | unknown): void {
    this.running--;
    if (isResponse(outcome)) {
      this.governor!.succeeded();
      this.wakeAttempts();
      const identity = this.identityOf.get(flight.request.model);
      // What the endpoint listed for the id is recorded with the answer, so a later run can tell a swapped model.
      const answer: ModelResponse = identity ? { ...outcome, served: { ...outcome.served, identity } } : outcome;
      if (answer.served?.model !== undefined) this.lastServed.set(flight.request.model, answer.served.model);
      outcome = answer;
    }
    const current = this.flights.get(flight.key) === flight;
    if (current) this.flights.delete(flight.key);
    if (flight.controller.signal.aborted || outcome instanceof ModelRequestCancelled) {
      // Cancelled: not an answer, not remembered; a later run may send it again (abortFlight logged it).
      flight.settle(new ModelRequestCancelled());
    } else if (isResponse(outcome) && unusableAnswer(flight.request, outcome) !== null) {
      // Not cached: once the server is fixed (or thinking turned off) a rerun asks again.
      this.done++;
      this.failed++;
      const failure: ModelFailure = { error: `${this.answerer(flight.request)} answered, but ${unusableAnswer(flight.request, outcome)}; the answer was not cached` };
      this.answered.set(flight.key, failure);
      this.chargeOnce(flight, { requests: 1, inputTokens: outcome.usage.input, outputTokens: outcome.usage.output });
      this.record(flight, 'sent', { ...outcome, error: failure.error });
      flight.settle(failure);
    } else if (isResponse(outcome)) {
      this.done++;
      this.answered.set(flight.key, outcome);
      this.chargeOnce(flight, { requests: 1, inputTokens: outcome.usage.input, outputTokens: outcome.usage.output });
      this.record(flight, 'sent', outcome);
      let writeError: string | null = null;
      try {
        this.cache.put(flight.key, flight.request, outcome);
      } catch (error) {
        writeError = error instanceof Error ? error.message : String(error);
      }
      // The answer stays known to this host (it is never sent again), but a cache that cannot keep
      // it is an error for the cases waiting now, so a full disk does not pass unnoticed.
      const settle = () => flight.settle(writeError === null ? outcome : { error: writeError });
      if (!this.store) settle();
      else {
        // Written before the waiting cases go on, so a closed tab loses no answered request.
        this.store.putMany([{ key: flight.key, request: flight.request, response: outcome }]).then(settle, (error: unknown) => {
          this.onWarning?.(`a response could not be stored (${error instanceof Error ? error.message : String(error)}); it is kept for this run only`);
          settle();
        });
      }
    } else {
      this.done++;
      this.failed++;
      const failure: ModelFailure = {
        error: outcome instanceof ModelEndpointError ? outcome.message : this.isLocal(flight.request) ? `${this.answerer(flight.request)} failed: ${outcome instanceof Error ? outcome.message : String(outcome)}` : `the model host failed: ${outcome instanceof Error ? outcome.message : String(outcome)}`,
      };
      this.answered.set(flight.key, failure);
      this.chargeOnce(flight, { requests: 1 });
      this.record(flight, 'sent', failure);
      flight.settle(failure);
    }
    this.pump();
  }

  private chargeOnce(flight: Flight, delta: Partial<ModelUsage>): void {
    if (this.charged.has(flight.key)) return;
    this.charged.add(flight.key);
    this.charge(flight.caseId, delta);
  }

  private charge(caseId: string, delta: Partial<ModelUsage>): void {
    const u = { ...(this.perCase.get(caseId) ?? NO_USAGE) };
    u.requests += delta.requests ?? 0;
    u.cacheHits += delta.cacheHits ?? 0;
    u.inputTokens += delta.inputTokens ?? 0;
    u.outputTokens += delta.outputTokens ?? 0;
    this.perCase.set(caseId, u);
  }

  private now(): number {
    return (this.send?.now ?? Date.now)();
  }

  /** Tells `onRequest` how one request was settled. */
  private record(flight: Pick<Flight, 'key' | 'request' | 'caseId' | 'step'> & { sentAt?: number }, source: RequestRecord['source'], answer: Partial<ModelResponse> & { error?: string } | null): void {
    if (!this.onRequest) return;
    const { request } = flight;
    const last = request.messages.at(-1);
    this.onRequest({
      key: flight.key,
      caseId: flight.caseId,
      step: flight.step,
      model: request.model,
      ...(request.seed !== undefined && { seed: request.seed }),
      choice: request.logprobs === true,
      source,
      ...(source !== 'cache' && flight.sentAt !== undefined && { latencyMs: Math.max(0, this.now() - flight.sentAt) }),
      inputTokens: answer?.usage?.input ?? 0,
      outputTokens: answer?.usage?.output ?? 0,
      ...(answer?.error !== undefined && { error: answer.error }),
      prompt: clip(last?.content ?? ''),
      answer: clip(answer?.text ?? ''),
    });
  }

  private report(): void {
    this.onProgress?.(this.progress());
  }
}

/** Text kept in a request record: enough to find a request by, not the whole prompt. */
const RECORD_TEXT = 300;

function clip(text: string): string {
  return text.length > RECORD_TEXT ? `${text.slice(0, RECORD_TEXT)}…` : text;
}

function isResponse(value: unknown): value is ModelResponse {
  return typeof value === 'object' && value !== null && typeof (value as ModelResponse).text === 'string' && typeof (value as ModelResponse).usage === 'object';
}
