/**
 * The study the open one is compared with: a session stored in this browser, named by the
 * navigation's compareId (and so by the address), loaded from IndexedDB when it changes, and the
 * comparison (src/engine/compare-studies.ts) of the open study's finished results against it.
 */
import { compareStudies, type StudyComparison } from '../../engine/compare-studies.ts';
import type { SessionStore } from '../../session/store.ts';
import { studySideOf } from '../../session/study-side.ts';
import type { Session } from '../../session/types.ts';
import type { Navigation } from '../navigation/navigation.svelte.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';

export class CompareTarget {
  /** The compared session, once loaded. */
  session = $state.raw<Session | null>(null);
  /** Why it could not be loaded (deleted, storage unavailable). */
  problem = $state<string | null>(null);
  loading = $state(false);

  readonly #store: () => SessionStore | null;
  readonly #nav: Navigation;
  readonly #runner: AnalysisRunner;
  readonly #currentId: () => string | null;

  comparison: StudyComparison | null = $derived.by(() => {
    const other = this.session;
    const batch = this.#runner.batch;
    if (!other || !batch || other.id !== this.#nav.compareId) return null;
    return compareStudies(studySideOf(other), { results: this.#runner.finishedResults(), batch }, this.#runner.settings.delta);
  });

  constructor(store: () => SessionStore | null, nav: Navigation, runner: AnalysisRunner, currentId: () => string | null) {
    this.#store = store;
    this.#nav = nav;
    this.#runner = runner;
    this.#currentId = currentId;
  }

  /** Loads the session the navigation names (call inside an effect: it reads compareId and the store). */
  follow(): void {
    const id = this.#nav.compareId;
    const store = this.#store();
    if (id === null || id === this.#currentId()) {
      this.session = null;
      this.problem = null;
      return;
    }
    if (!store || this.session?.id === id) return;
    this.loading = true;
    this.problem = null;
    void store
      .get(id)
      .then((session) => {
        if (this.#nav.compareId !== id) return;
        if (session) this.session = session;
        else {
          this.session = null;
          this.problem = 'That session is no longer stored in this browser (it was deleted, or the link comes from another browser).';
        }
      })
      .catch((error: unknown) => {
        if (this.#nav.compareId === id) this.problem = `Could not read that session: ${(error as Error).message}`;
      })
      .finally(() => {
        if (this.#nav.compareId === id) this.loading = false;
      });
  }
}
