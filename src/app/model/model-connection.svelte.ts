/**
 * Where the page sends model steps' requests: the endpoint's base URL, the API key and the number
 * of requests in flight. The base URL and concurrency are remembered in this browser
 * (localStorage); the key lives only in memory, for this page's life, and is never written
 * anywhere. Model ids by alias belong to the study (its settings), not here.
 */

import { blockedPort } from './blocked-ports.ts';
import { maskKey } from '../../model/index.ts';

const STORAGE_KEY = 'agentblame.model-connection';
/** Requests one analysis may send before the page asks to go on (a paid endpoint's safety catch). */
export const DEFAULT_ASK_ABOVE = 200;

export interface ConnectionTest {
  status: 'idle' | 'testing' | 'ok' | 'error';
  message: string;
  models: string[];
}

export class ModelConnection {
  baseUrl = $state('');
  concurrency = $state(4);
  /** Time limit of one request's attempt, in seconds (a one-slot CPU server may need minutes). */
  timeoutSeconds = $state(60);
  /** Ask before sending more than this many requests in one analysis (0: never ask). */
  askAbove = $state(DEFAULT_ASK_ABOVE);
  /** Never persisted: typed for this page's life only. */
  apiKey = $state('');
  test = $state.raw<ConnectionTest>({ status: 'idle', message: '', models: [] });
  /** The base URL `test` is about (a test says nothing of a URL typed since). */
  testedUrl = $state('');
  /** The test in progress, shared by whoever asks for the same URL meanwhile. */
  #testing: { url: string; done: Promise<void> } | null = null;
  /** The URL of the latest test asked for: an earlier one that ends later says nothing any more. */
  #latest = '';

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeLocalStorage()) {
    try {
      const saved = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? 'null') as { baseUrl?: unknown; concurrency?: unknown; askAbove?: unknown; timeoutSeconds?: unknown } | null;
      if (typeof saved?.timeoutSeconds === 'number' && saved.timeoutSeconds > 0 && saved.timeoutSeconds <= 3600) this.timeoutSeconds = saved.timeoutSeconds;
      if (Number.isInteger(saved?.askAbove) && (saved!.askAbove as number) >= 0) this.askAbove = saved!.askAbove as number;
      if (typeof saved?.baseUrl === 'string') this.baseUrl = saved.baseUrl;
      if (Number.isInteger(saved?.concurrency) && (saved!.concurrency as number) >= 1 && (saved!.concurrency as number) <= 64) this.concurrency = saved!.concurrency as number;
    } catch {
      // A corrupt entry is ignored: the fields start empty.
    }
  }

  /** Why the base URL cannot be used, or null when it can. */
  get urlProblem(): string | null {
    const url = this.baseUrl.trim();
    if (url === '') return 'Set the base URL of an OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 (Ollama).';
    if (!/^https?:\/\/[^\s]+$/.test(url)) return `"${url}" is not an http(s) URL.`;
    const completions = /\/(chat\/)?completions\/*$/.exec(url);
    if (completions) return `Give the base URL without "${completions[0].replace(/\/+$/, '')}" (requests go to base URL/chat/completions): ${url.slice(0, completions.index)}`;
    // Chromium refuses these before sending anything, and its fetch says only "Failed to fetch".
    const port = blockedPort(url);
    if (port !== null) return `Port ${port} is blocked by the browser: use another port (the server's --port).`;
    return null;
  }

  /**
   * Whether the base URL as it is now answered its connection test: true (passed), false (failed,
   * or cannot be used), null (not tested yet, e.g. saved on an earlier visit, or being tested).
   */
  get answers(): boolean | null {
    if (this.urlProblem !== null) return false;
    if (this.testedUrl !== this.baseUrl.trim() || this.test.status === 'idle' || this.test.status === 'testing') return null;
    return this.test.status === 'ok';
  }

  /** Remember the base URL, concurrency and the ask threshold (never the key). */
  save(): void {
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: this.baseUrl.trim(), concurrency: this.concurrency, askAbove: this.askAbove, timeoutSeconds: this.timeoutSeconds }));
    } catch {
      // Storage may be full or blocked; the settings still apply for this page.
    }
  }

  /** Ask the endpoint for its models (`GET {base}/models`): its list, or its error. */
  testConnection(fetchImpl: typeof fetch = fetch): Promise<void> {
    const url = this.baseUrl.trim();
    if (this.#testing?.url === url) return this.#testing.done;
    this.#latest = url;
    const testing = { url, done: this.#runTest(url, fetchImpl).finally(() => { if (this.#testing === testing) this.#testing = null; }) };
    this.#testing = testing;
    return testing.done;
  }

  async #runTest(url: string, fetchImpl: typeof fetch): Promise<void> {
    const problem = this.urlProblem;
    if (problem) {
      this.#show(url, { status: 'error', message: problem, models: [] });
      return;
    }
    const base = url.replace(/\/+$/, '');
    this.#show(url, { status: 'testing', message: `Asking ${base}/models…`, models: [] });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 10_000);
    try {
      const response = await fetchImpl(`${base}/models`, { headers: this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {}, signal: controller.signal });
      // Masked before anything is quoted or cut: a key cut in two by the excerpt would leak its start.
      const text = redact(await response.text(), this.apiKey);
      // Many proxies list no models (404, 405): the server answers, so it is used and its chat requests decide, as in the command.
      if (response.status === 404 || response.status === 405) {
        this.#show(url, { status: 'ok', message: `Connected to ${base}: it lists no models (${base}/models answered HTTP ${response.status}), so the chat requests will tell whether it serves the model.`, models: [] });
        return;
      }
      if (!response.ok) {
        this.#show(url, { status: 'error', message: `${base}/models answered HTTP ${response.status}${quoteError(text)}`, models: [] });
        return;
      }
      const models = modelIds(text);
      this.#show(url, models
        ? { status: 'ok', message: `Connected: ${models.length} model${models.length === 1 ? '' : 's'} at ${base}.`, models }
        : { status: 'error', message: `${base}/models answered, but not with an OpenAI-style model list.`, models: [] });
    } catch (error) {
      const why = controller.signal.aborted ? 'no answer within 10 s' : redact(error instanceof Error ? error.message : String(error), this.apiKey);
      this.#show(url, {
        status: 'error',
        message: `Cannot reach ${base}: ${why}. Is the server running, does it allow this page's origin (Ollama: OLLAMA_ORIGINS), and is the origin allowed by the page's Content-Security-Policy?`,
        models: [],
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** A test's result, unless a test of another URL was asked for since. */
  #show(url: string, test: ConnectionTest): void {
    if (this.#latest !== url) return;
    this.test = test;
    this.testedUrl = url;
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The ids of an OpenAI `{ data: [{ id }] }` list (Ollama's `{ models: [{ name }] }` too), or null. */
function modelIds(text: string): string[] | null {
  try {
    const body = JSON.parse(text) as { data?: { id?: unknown }[]; models?: { name?: unknown; model?: unknown }[] };
    const list = Array.isArray(body.data) ? body.data.map((m) => m?.id) : Array.isArray(body.models) ? body.models.map((m) => m?.name ?? m?.model) : null;
    return list ? list.filter((id): id is string => typeof id === 'string') : null;
  } catch {
    return null;
  }
}

/** `: "the endpoint's message"`, short, from an OpenAI-style error body when there is one. */
function quoteError(text: string): string {
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string };
    const inner = typeof body.error === 'string' ? body.error : body.error?.message;
    if (typeof inner === 'string') message = inner;
  } catch {
    // Not JSON: quote the text itself.
  }
  message = message.trim().replace(/\s+/g, ' ');
  if (message === '') return '';
  return `: "${message.length > 200 ? `${message.slice(0, 197)}...` : message}"`;
}

/** The text with every occurrence of the key masked (the model host's one masking, JSON-escaped form included): endpoints sometimes echo what they were sent. */
export function redact(text: string, key: string): string {
  return key.length >= 4 ? maskKey(text, key) : text;
}
