/**
 * The Trends view's data: the stored sessions' trend digests (read from the store, which computes
 * each from its session's own results once: SessionStore.trendDigests), the studies of the chosen
 * pipeline and tag, and their trends from the engine's one function (the command's numbers).
 */
import { computeTrends, type TrendDigest, type Trends } from '../../engine/trends.ts';
import { tagKey, tagValue } from '../../engine/tags.ts';
import type { SessionStore } from '../../session/store.ts';
import type { Navigation } from '../navigation/navigation.svelte.ts';
import type { AnalysisRunner } from '../state/analysis-runner.svelte.ts';
import { DEFAULT_TREND_SELECTION, groupingOf, type TrendSelection } from './trend-selection.ts';

/** The studies of pipeline `name` with `tag` (a bare key: any value). */
export function chosenDigests(digests: readonly TrendDigest[], name: string, tag: string | null): TrendDigest[] {
  return digests.filter((d) => d.name === name && (tag === null || (tag === tagKey(tag) ? tagValue(d.tags, tag) !== undefined : d.tags.includes(tag))));
}

export class TrendsState {
  digests = $state.raw<TrendDigest[] | null>(null);
  problem = $state<string | null>(null);
  loading = $state(false);

  readonly #store: () => SessionStore | null;
  readonly #nav: Navigation;
  readonly #runner: AnalysisRunner;
  #asked = 0;

  selection: TrendSelection = $derived.by(() => this.#nav.trends ?? DEFAULT_TREND_SELECTION);
  /** The pipeline shown: the address's, else the open study's. */
  pipeline: string | null = $derived.by(() => this.selection.name ?? this.#runner.study?.pipeline?.name ?? this.#runner.study?.name ?? null);
  pipelines: string[] = $derived.by(() => [...new Set((this.digests ?? []).map((d) => d.name))].sort());
  tags: string[] = $derived.by(() => [...new Set((this.digests ?? []).filter((d) => d.name === this.pipeline).flatMap((d) => d.tags))].sort());
  trends: Trends | null = $derived.by(() => {
    if (!this.digests || this.pipeline === null) return null;
    return computeTrends(chosenDigests(this.digests, this.pipeline, this.selection.tag), { grouping: groupingOf(this.selection), delta: this.#runner.settings.delta });
  });

  constructor(store: () => SessionStore | null, nav: Navigation, runner: AnalysisRunner) {
    this.#store = store;
    this.#nav = nav;
    this.#runner = runner;
  }

  /** Reads the digests again (the view opened, a session was saved): the latest read wins. */
  refresh(): void {
    const store = this.#store();
    if (!store) return;
    const asked = ++this.#asked;
    this.loading = true;
    store
      .trendDigests()
      .then((digests) => {
        if (asked !== this.#asked) return;
        this.digests = digests;
        this.problem = null;
      })
      .catch((error: unknown) => {
        if (asked === this.#asked) this.problem = `Could not read the stored sessions: ${(error as Error).message}`;
      })
      .finally(() => {
        if (asked === this.#asked) this.loading = false;
      });
  }

  /** Reads the digests now and again after every stored change (a save here or in another tab); returns the unsubscribe. */
  watch(): () => void {
    this.refresh();
    const store = this.#store();
    return store ? store.subscribe(() => this.refresh()) : () => {};
  }

  choose(change: Partial<TrendSelection>): void {
    this.#nav.trends = { ...this.selection, ...change };
  }
}
