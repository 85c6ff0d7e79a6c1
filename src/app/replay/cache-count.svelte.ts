/**
 * The setup panel's "cache answers N of M requests" line: the replay definition analysed in a
 * worker of its own with a CacheCountResolver (nothing is sent), again whenever the setup changes
 * (after a pause, the previous count cancelled).
 */
import type { AnalysisSettings } from '../../engine/types.ts';
import type { AsyncResponseStore } from '../../model/index.ts';
import type { ReplayDefinition } from '../../replay/index.ts';
import type { PageAnalysisPool } from '../../pool/page/analysis-pool.ts';
import { CacheCountResolver } from './cache-count.ts';
import { pageWords } from '../model/page-words.ts';

export type CountState =
  | { status: 'idle' }
  | { status: 'counting' }
  | { status: 'done'; answered: number; total: number }
  | { status: 'error'; message: string };

const PAUSE_MS = 400;

/** What the count asks of its pool (tests give it a fake one). */
export type CountPool = Pick<PageAnalysisPool, 'run' | 'dispose'>;

export class CacheCount {
  state = $state.raw<CountState>({ status: 'idle' });
  readonly #store: Pick<AsyncResponseStore, 'getMany'>;
  readonly #createPool: () => CountPool;
  #pool: CountPool | null = null;
  #abort: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(store: Pick<AsyncResponseStore, 'getMany'>, createPool: () => CountPool) {
    this.#store = store;
    this.#createPool = createPool;
  }

  /** Counts the requests of `definition` under `settings` after a short pause (a newer call wins). */
  schedule(definition: ReplayDefinition | null, settings: AnalysisSettings): void {
    this.#stop();
    if (!definition) {
      this.state = { status: 'idle' };
      return;
    }
    this.state = { status: 'counting' };
    this.#timer = setTimeout(() => void this.#count(definition, settings), PAUSE_MS);
  }

  async #count(definition: ReplayDefinition, settings: AnalysisSettings): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    const resolver = new CacheCountResolver(this.#store);
    const errors: string[] = [];
    this.#pool ??= this.#createPool();
    try {
      const outcome = await this.#pool.run(
        {
          items: definition.cases.map((caseDef, index) => ({ kind: 'case', index, caseDef })),
          source: definition.source,
          fileName: `${definition.name}.js`,
          settings,
          players: definition.steps,
          model: resolver,
          onResult: (_, result) => {
            if (result.error !== undefined) errors.push(result.error);
          },
        },
        abort.signal,
      );
      if (outcome !== 'done' || abort.signal.aborted) return;
      this.state = errors.length > 0 && resolver.total === 0 ? { status: 'error', message: pageWords(errors[0]) } : { status: 'done', answered: resolver.answered, total: resolver.total };
    } catch (error) {
      if (!abort.signal.aborted) this.state = { status: 'error', message: pageWords(error instanceof Error ? error.message : String(error)) };
    }
  }

  #stop(): void {
    clearTimeout(this.#timer);
    this.#abort?.abort();
    this.#abort = null;
  }

  /** Stops counting and ends the worker. */
  dispose(): void {
    this.#stop();
    this.#pool?.dispose();
    this.#pool = null;
  }
}
