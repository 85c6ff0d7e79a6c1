/**
 * The page's one model host. Every page job that calls a model (a study's analysis, a replay and
 * its judge, a replay's contrast, "Why this decision?" and its fixes) opens a job here, so each
 * gets the same connection, concurrency, request time limit, ask-before-N-requests guard and
 * response cache (this browser's store first, then what a session file carries), and shows its
 * requests the same way (`PageModelJob.activity`).
 *
 * A new kind of model (an in-page model, say) plugs in as a `ModelSource`, the second kind beside
 * the Model panel's endpoint (`EndpointSource`): `connect()` gives the OpenAI-compatible endpoint
 * config the requests are addressed to and, when it is not reached over the network, the `fetch`
 * that answers them in the page (`POST {baseUrl}/chat/completions`, and `GET {baseUrl}/models`
 * for the served model's name). `host.use(source)` makes every later job use it; `use(null)` goes
 * back to the endpoint. Nothing else changes: the queue, the limits, the guard, the cache and the
 * progress are the `ModelHost`'s, for every kind. A model run in the page itself may instead give
 * `local` (a LocalModel, src/model/local-model.ts) beside the endpoint: the in-page model does
 * (`WithLocalModel`), answering the requests of model file ids while every other id goes to the endpoint.
 */
import { pageWords } from './page-words.ts';
import { endpointConfig, MemoryResponseCache, ModelHost, type AsyncResponseStore, type EndpointConfig, type HostRequest, type LocalModel, type ModelHostOptions, type ModelProgress, type RequestRecord } from '../../model/index.ts';
import type { ModelAnswer, ModelUsage } from '../../engine/model-call.ts';
import type { ModelResolver } from '../../pool/contract.ts';
import type { ModelCacheEntry } from '../../session/types.ts';
import type { ModelConnection } from './model-connection.svelte.ts';
import type { InPageModel } from './in-page/in-page-model.svelte.ts';
import type { ResponseStore } from './response-store.ts';
import { withCarriedResponses } from './session-responses.ts';

/**
 * The most distinct requests a job may need (sent or answered from the cache), as its study
 * estimates them before it runs; `upper`: an upper bound (fewer are needed when answers repeat
 * the recorded ones), not an exact count.
 */
export interface RequestBound {
  most: number;
  upper: boolean;
}

/**
 * A job's model requests: progress, tokens, where they go, and what the host said that failed no
 * request; `bound`: the most it may need, when its study said (`PageModelJob.expect`);
 * `elapsedMs`: since the job opened, when this was taken (for the time left).
 */
export type ModelActivity = ModelProgress & { usage: ModelUsage; endpoint: string | null; warnings?: readonly string[]; bound?: RequestBound; elapsedMs?: number; rounds?: ModelRoundCounts };

/**
 * Rounds the analysis pool ran for the job's cases after their first (ModelResolver.countRound):
 * restarted from the case's start, or a response handed to a round that waited for it (docs/replay.md, "Time").
 */
export interface ModelRoundCounts {
  restarts: number;
  waits: number;
}

/** A request in a job's log: as the host settled it, and when (ms since the job opened). */
export type LoggedRequest = RequestRecord & { atMs: number };

/**
 * Seconds left for a job's requests at its pace so far (the requests settled, sent or cached, over
 * the time since it opened); null before any answer, without a bound, or once nothing is left.
 */
export function requestSecondsLeft(activity: ModelActivity): number | null {
  const settled = activity.done + activity.cacheHits;
  if (!activity.bound || activity.elapsedMs === undefined || activity.done === 0) return null;
  const left = activity.bound.most - settled;
  if (left <= 0) return null;
  return (left * activity.elapsedMs) / settled / 1000;
}

/** What a kind of model gives the host: where requests go, and how they get there. */
export interface ModelConnect {
  /** The endpoint's settings (base URL, key, concurrency, time limit of one request, retries); none when only `local` answers. */
  endpoint?: EndpointConfig;
  /** How requests are sent when not with the page's `fetch` (an in-page model answers them itself). */
  fetch?: typeof fetch;
  /** A model run in the page (ModelHost's `local`): it answers the requests of the model ids it handles, the endpoint the rest. */
  local?: LocalModel;
}

/** A kind of model the page's jobs can send requests to. */
export interface ModelSource {
  /** `endpoint` (the Model panel's), or another kind's name. */
  readonly kind: string;
  /**
   * Where a job's requests go now, or null when nothing can take them (no usable URL, a model not
   * loaded): requests the cache lacks then fail, or wait for an endpoint (EndpointWait).
   */
  connect(): ModelConnect | null;
  /** Called before a job that will send: a connection saved on an earlier visit is tested first. */
  check?(): Promise<void>;
}

/** The Model panel's endpoint: its base URL, key, concurrency and request time limit. */
export class EndpointSource implements ModelSource {
  readonly kind = 'endpoint';
  constructor(readonly connection: ModelConnection) {}

  connect(): ModelConnect | null {
    const c = this.connection;
    // An endpoint that cannot be reached is none (cases wait); one that answered anything (even a
    // 404 for its model list) is used: its chat requests decide, as in the command.
    if (c.urlProblem !== null || c.answers === false) return null;
    try {
      return { endpoint: endpointConfig({ baseUrl: c.baseUrl, apiKey: c.apiKey || undefined, concurrency: c.concurrency, timeoutMs: Math.round(c.timeoutSeconds * 1000) }) };
    } catch {
      return null;
    }
  }

  async check(): Promise<void> {
    if (this.connection.answers === null) await this.connection.testConnection();
  }
}

/**
 * The in-page model beside another source (the Model panel's endpoint): requests whose model id
 * names a kept model file (`gguf-sha256:<hex>`) go to it, every other id to the endpoint as before.
 */
export class WithLocalModel implements ModelSource {
  readonly kind: string;
  constructor(
    readonly inner: ModelSource,
    readonly local: LocalModel,
  ) {
    this.kind = `${inner.kind}+in-page`;
  }

  connect(): ModelConnect {
    return { ...(this.inner.connect() ?? {}), local: this.local };
  }

  check(): Promise<void> {
    return this.inner.check?.() ?? Promise.resolve();
  }
}

/** Progress reaches the page at most this often (it arrives per request), and at once when sending pauses. */
const PROGRESS_MS = 100;
/** Warnings kept per job: more say nothing new. */
const MAX_WARNINGS = 5;
/** Requests kept in a job's log: the first ones and the latest (a long study keeps sending). */
export const LOG_LIMIT = 5000;

/** One job's model host: a ModelResolver for a pool, with its activity as runes. */
export class PageModelJob implements ModelResolver {
  /** Requests of this job so far; null until it asks for any. */
  activity = $state.raw<ModelActivity | null>(null);
  /** Each distinct request as it was settled (from the cache, sent, failed, cancelled), in order; at most LOG_LIMIT. */
  log = $state.raw<readonly LoggedRequest[]>([]);
  /** Requests settled but left out of `log` (past LOG_LIMIT). */
  logDropped = $state(0);
  readonly host: ModelHost;
  readonly #endpoint: string | null;
  /** The key sent with the requests, kept only to take it out of anything exported. */
  readonly apiKey: string;
  #warnings: readonly string[] = [];
  #records: LoggedRequest[] = [];
  #dropped = 0;
  #bound: RequestBound | undefined;
  #rounds: ModelRoundCounts = { restarts: 0, waits: 0 };
  readonly #openedAt: number;
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(connect: ModelConnect | null, options: { store: AsyncResponseStore; askAbove?: number; send?: ModelHostOptions['send'] }) {
    this.#endpoint = connect?.endpoint?.baseUrl ?? null;
    this.apiKey = connect?.endpoint?.apiKey ?? '';
    this.#now = options.send?.now ?? (() => performance.now());
    this.#openedAt = this.#now();
    const send = connect?.fetch ? { ...options.send, fetch: connect.fetch } : options.send;
    this.host = new ModelHost({
      cache: new MemoryResponseCache(),
      ...(connect?.endpoint && { endpoint: connect.endpoint }),
      ...(connect?.local && { local: connect.local }),
      ...(send && { send }),
      store: options.store,
      ...(options.askAbove !== undefined && { askAbove: options.askAbove }),
      onWarning: (raw) => {
        // Written for the command and the page: the page shows its own half (no flags).
        const message = pageWords(raw);
        if (this.#closed || this.#warnings.includes(message) || this.#warnings.length >= MAX_WARNINGS) return;
        this.#warnings = [...this.#warnings, message];
        if (this.activity) this.activity = { ...this.activity, warnings: this.#warnings };
      },
      onRequest: (record) => {
        if (this.#closed) return;
        if (this.#records.length < LOG_LIMIT) this.#records.push({ ...record, atMs: Math.round(this.#now() - this.#openedAt) });
        else this.#dropped++;
      },
      onProgress: (progress) => {
        if (this.#closed) return;
        if (progress.held) this.#show();
        else this.#timer ??= setTimeout(() => this.#show(), PROGRESS_MS);
      },
    });
  }

  /** The most requests the job's study may need (shown as "N of at most M"); set before it sends. */
  expect(bound: RequestBound | null): void {
    this.#bound = bound ?? undefined;
    // A study with a bound calls a model: its line shows "0 of at most M" before the first request.
    if (bound || this.activity) this.#show();
  }

  /** Whether requests the cache lacks can be sent. */
  get hasEndpoint(): boolean {
    return this.host.hasEndpoint;
  }

  resolve(requests: HostRequest[], signal?: AbortSignal): Promise<Map<string, ModelAnswer>> {
    return this.host.resolve(requests, signal);
  }

  usage(caseId: string): ModelUsage {
    return this.host.usage(caseId);
  }

  /** Sends the requests held at the ask-before threshold. */
  release(): void {
    this.host.release();
    if (this.activity) this.activity = { ...this.activity, held: false };
  }

  /** Aborts the requests in flight; the job's figures stay as they are. */
  cancel(): void {
    this.host.cancel();
    this.finish();
  }

  /** The job's final figures (the throttled updates may lag behind); null when it asked for nothing. No more updates follow. */
  finish(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const usage = this.host.totalUsage();
    const progress = this.host.progress();
    const any = usage.requests + usage.cacheHits + progress.done + progress.queued + progress.inFlight > 0;
    this.activity = any ? { ...progress, held: false, usage, endpoint: this.#endpoint, warnings: this.#warnings, ...this.#extras() } : null;
    this.#showLog();
    this.#closed = true;
  }

  /** Counted for the page's progress line (its data attributes: e2e/replay-waiting.spec.ts); shown with the next activity. */
  countRound(kind: 'restart' | 'wait'): void {
    this.#rounds = kind === 'restart' ? { ...this.#rounds, restarts: this.#rounds.restarts + 1 } : { ...this.#rounds, waits: this.#rounds.waits + 1 };
  }

  #extras(): Pick<ModelActivity, 'bound' | 'elapsedMs' | 'rounds'> {
    return { ...(this.#bound && { bound: this.#bound }), elapsedMs: this.#now() - this.#openedAt, rounds: this.#rounds };
  }

  #showLog(): void {
    if (this.#records.length !== this.log.length) this.log = [...this.#records];
    if (this.#dropped !== this.logDropped) this.logDropped = this.#dropped;
  }

  #show(): void {
    this.#timer = undefined;
    if (this.#closed) return;
    this.activity = { ...this.host.progress(), usage: this.host.totalUsage(), endpoint: this.#endpoint, warnings: this.#warnings, ...this.#extras() };
    this.#showLog();
  }
}

export class PageModelHost {
  /** The Model panel's endpoint settings (base URL, key, concurrency, time limit, ask-before threshold). */
  readonly connection: ModelConnection;
  /** This browser's response cache (IndexedDB, shared by every session). */
  readonly store: ResponseStore;
  /** Another kind of model chosen with `use`, or null: the Model panel's endpoint. */
  #chosen = $state.raw<ModelSource | null>(null);
  readonly #endpoint: ModelSource;
  readonly #send: ModelHostOptions['send'];

  /** Model files kept in this browser (the in-page model), when the page offers them. */
  readonly inPage: InPageModel | null;

  /** `send`: the connector's injectables (fetch, sleep, clock), for tests. `inPage`: the in-page model, answering beside the endpoint. */
  constructor(connection: ModelConnection, store: ResponseStore, send?: ModelHostOptions['send'], inPage?: InPageModel) {
    this.connection = connection;
    this.store = store;
    const endpoint = new EndpointSource(connection);
    this.#endpoint = inPage ? new WithLocalModel(endpoint, inPage) : endpoint;
    this.inPage = inPage ?? null;
    this.#send = send;
  }

  /** Where jobs send: the Model panel's endpoint (with the in-page model beside it) unless another kind was chosen (`use`). */
  get source(): ModelSource {
    return this.#chosen ?? this.#endpoint;
  }

  /** Every later job sends to this kind of model; null: the Model panel's endpoint again. */
  use(source: ModelSource | null): void {
    this.#chosen = source;
  }

  /** Tests a connection not tested yet (a base URL saved on an earlier visit) before a job that sends. */
  async check(): Promise<void> {
    await this.source.check?.();
  }

  /**
   * A job's host, over the source as it is now (a URL typed since the last job is used) and the
   * response store, with the responses a session file carries behind it (`carried`). `guard: false`
   * sends without asking (a job the user already confirmed).
   */
  open(options: { carried?: readonly ModelCacheEntry[]; guard?: boolean } = {}): PageModelJob {
    const askAbove = options.guard === false || this.connection.askAbove <= 0 ? undefined : this.connection.askAbove;
    const store = withCarriedResponses(this.store, options.carried ?? []);
    return new PageModelJob(this.source.connect(), { store, askAbove, send: this.#send });
  }
}
