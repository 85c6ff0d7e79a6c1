/**
 * The in-page model (docs/model-steps.md, "A model file in this browser"): model files kept in this
 * browser answer the requests whose model id names them (`gguf-sha256:<hex>`), as a LocalModel
 * the page's model host sends to instead of an endpoint. The engine (wllama and its WebAssembly)
 * is imported only when a request needs it; one file is loaded at a time, one request at a time.
 */
import type { ChatRequest, ModelResponse } from '../../../engine/model-call.ts';
import { modelFileHash, modelFileId, type LocalModel } from '../../../model/index.ts';
import { megabytes, ModelFileError, ModelFiles, type StoredModelFile } from './model-files.ts';
import type { LoadedModel } from './wllama-runner.ts';

/** Our own limit on loading a model file: the library waits for ever when its worker cannot start. */
export const DEFAULT_LOAD_TIMEOUT_MS = 60_000;
/** The tiny model shipped with the page (public/models/SOURCES.md). */
export const SHIPPED_MODEL_URL = 'models/stories260K.gguf';

export interface InPageStatus {
  phase: 'idle' | 'busy' | 'ready' | 'error';
  message: string;
}

type Loader = (file: Blob, modelId: string, options: { timeoutMs: number; timeoutMessage: string }) => Promise<LoadedModel>;

export class InPageModel implements LocalModel {
  files = $state.raw<StoredModelFile[]>([]);
  status = $state.raw<InPageStatus>({ phase: 'idle', message: '' });
  /** `?model-load-timeout=S` (1 to 600 s) overrides it, e.g. for a test of the limit. */
  loadTimeoutMs = loadTimeoutFromQuery() ?? DEFAULT_LOAD_TIMEOUT_MS;
  #loaded: { sha256: string; model: Promise<LoadedModel> } | null = null;
  /** One request at a time: the loaded model has one context. */
  #slot: Promise<unknown> = Promise.resolve();

  constructor(
    readonly store: ModelFiles = new ModelFiles(),
    private readonly loader: Loader = async (...args) => (await import('./wllama-runner.ts')).loadWllama(...args),
  ) {}

  /** Read the list of kept files again. */
  async refresh(): Promise<void> {
    try {
      this.files = await this.store.list();
    } catch (error) {
      this.#fail(error);
    }
  }

  handles(modelId: string): boolean {
    return modelFileHash(modelId) !== null;
  }

  describe(modelId: string): string {
    const hash = modelFileHash(modelId);
    const kept = this.files.find((f) => f.sha256 === hash);
    return `the in-page model ${kept ? kept.name : `gguf-sha256:${hash?.slice(0, 8)}…`}`;
  }

  /** Keep a picked or dropped file; its model id. */
  async addFile(file: Blob, name: string): Promise<string | null> {
    return this.#keeping(name, async () => this.store.add(file, name));
  }

  /** Fetch a model file from this page's origin (the shipped model, or a file served beside the page) and keep it. */
  async addUrl(url: string): Promise<string | null> {
    return this.#keeping(url, async () => {
      const target = new URL(url, document.baseURI);
      if (target.origin !== location.origin) throw new ModelFileError(`${url} is not on this page's origin (${location.origin}): download it and pick the file instead.`);
      const response = await fetch(target, { credentials: 'same-origin' });
      if (!response.ok) throw new ModelFileError(`${target.pathname} answered HTTP ${response.status}.`);
      const total = Number(response.headers.get('Content-Length')) || 0;
      const name = decodeURIComponent(target.pathname.split('/').pop() || 'model.gguf');
      const chunks: Uint8Array[] = [];
      let read = 0;
      const reader = response.body?.getReader();
      if (!reader) throw new ModelFileError(`${target.pathname} has no body.`);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        read += value.byteLength;
        this.status = { phase: 'busy', message: `Downloading ${name}: ${megabytes(read)}${total ? ` of ${megabytes(total)}` : ''}…` };
      }
      return this.store.add(new Blob(chunks as BlobPart[]), name);
    });
  }

  async remove(sha256: string): Promise<void> {
    if (this.#loaded?.sha256 === sha256) await this.#unload();
    await this.store.remove(sha256);
    await this.refresh();
    this.status = { phase: 'idle', message: '' };
  }

  async #keeping(what: string, keep: () => Promise<StoredModelFile>): Promise<string | null> {
    this.status = { phase: 'busy', message: `Checking and keeping ${what}…` };
    try {
      const kept = await keep();
      await this.refresh();
      // A file used again after a failed load gets a fresh try.
      if (this.#loaded?.sha256 === kept.sha256) await this.#unload();
      this.status = { phase: 'idle', message: `Kept ${kept.name} (${megabytes(kept.size)}); it loads when a step asks it.` };
      return modelFileId(kept.sha256);
    } catch (error) {
      this.#fail(error);
      return null;
    }
  }

  complete(request: ChatRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const run = this.#slot.then(async () => {
      const model = await this.#model(modelFileHash(request.model)!);
      return model.complete(request, signal);
    });
    this.#slot = run.catch(() => {});
    return run;
  }

  /** The loaded model of a hash (loading it, and unloading another, when needed); a failed load stays failed until the file is used again. */
  #model(sha256: string): Promise<LoadedModel> {
    if (this.#loaded?.sha256 === sha256) return this.#loaded.model;
    const previous = this.#loaded;
    const model = (async () => {
      if (previous) await previous.model.then((m) => m.close(), () => {});
      const { file, stored } = await this.store.file(sha256);
      const seconds = Math.round(this.loadTimeoutMs / 1000);
      this.status = { phase: 'busy', message: `Loading ${stored.name} (${megabytes(stored.size)}) into the page (at most ${seconds} s)…` };
      const started = performance.now();
      const loaded = await this.loader(file, modelFileId(sha256), {
        timeoutMs: this.loadTimeoutMs,
        timeoutMessage: `${stored.name} did not load within ${seconds} s: the page's Content-Security-Policy may refuse WebAssembly (it needs 'wasm-unsafe-eval'), or the file is damaged or too large for this browser`,
      });
      this.status = { phase: 'ready', message: `${stored.name} is loaded in this page (${((performance.now() - started) / 1000).toFixed(1)} s).` };
      return loaded;
    })();
    model.catch((error: unknown) => this.#fail(error));
    this.#loaded = { sha256, model };
    return model;
  }

  async #unload(): Promise<void> {
    const loaded = this.#loaded;
    this.#loaded = null;
    if (loaded) await loaded.model.then((m) => m.close(), () => {});
  }

  #fail(error: unknown): void {
    this.status = { phase: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

function loadTimeoutFromQuery(): number | null {
  const seconds = Number(new URLSearchParams(globalThis.location?.search ?? '').get('model-load-timeout'));
  return Number.isFinite(seconds) && seconds >= 1 && seconds <= 600 ? seconds * 1000 : null;
}
