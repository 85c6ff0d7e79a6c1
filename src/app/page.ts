/**
 * The workbench's state, assembled once: `App.svelte` calls this with the page's workers, the
 * tests (src/app/testing/page-state.ts) with their fakes, so both run the same wiring. What touches
 * the address bar and the DOM (UrlSync, the run view's address and kept files) stays in App.svelte.
 *
 * Only the assembly makes the state classes of the page's folders (src/architecture.test.ts,
 * "layers inside the page"); everything else receives them.
 */
import { CompareTarget } from './compare/compare-target.svelte.ts';
import { EarlierVersion } from './compare/earlier-version.svelte.ts';
import { EndpointWait } from './model/endpoint-wait.svelte.ts';
import { ModelConnection } from './model/model-connection.svelte.ts';
import { InPageModel } from './model/in-page/in-page-model.svelte.ts';
import { PageModelHost } from './model/page-model-host.svelte.ts';
import { ResponseStore } from './model/response-store.ts';
import { Navigation } from './navigation/navigation.svelte.ts';
import { ReplayLauncher } from './replay/replay-launcher.svelte.ts';
import { KeptSetups } from './replay/kept-setups.ts';
import { RunsState } from './runs/runs-state.svelte.ts';
import { AnalysisRunner, type RunnerPool } from './state/analysis-runner.svelte.ts';
import { SessionSync } from './state/session-sync.svelte.ts';
import { StudyOpener } from './state/study-opener.svelte.ts';
import { ViewContext } from './views/view-context.svelte.ts';
import { TrendsState } from './trends/trends-state.svelte.ts';
import { PriceTable } from './runs/price-table.svelte.ts';

export interface PageParts {
  /** Where the user is (view, case, set). */
  nav: Navigation;
  /** The one model host of every page job that calls a model. */
  model: PageModelHost;
  runner: AnalysisRunner;
  /** The session autosave of the open study. */
  sync: SessionSync;
  opener: StudyOpener;
  compare: CompareTarget;
  /** "Compare with an earlier version": the regression game of the open definition. */
  earlier: EarlierVersion;
  /** What the views read. */
  views: ViewContext;
  /** Recorded runs open in the run view. */
  runs: RunsState;
  /** "Blame this run": from a run to its replay study, and its contrast. */
  replay: ReplayLauncher;
  /** Model prices kept in this browser: costs in the run view and of a study's requests. */
  prices: PriceTable;
}

export interface PageOptions {
  /** Workers in the analysis pool. */
  workers: number;
  /** The analysis pool (tests give a fake one; default: the page's Web Workers). */
  createPool?: (workers: number) => RunnerPool;
  /** How a file is imported (tests import in-process; default: the import worker). */
  importFile?: ConstructorParameters<typeof StudyOpener>[2];
  /** The page's model host (tests give one with their fetch; default: the Model panel's settings and this browser's response store). */
  model?: PageModelHost;
}

export function assemblePage(options: PageOptions): PageParts {
  const nav = new Navigation();
  // The in-page model (model files kept in this browser) answers beside the Model panel's endpoint.
  const model = options.model ?? new PageModelHost(new ModelConnection(), new ResponseStore(), undefined, new InPageModel());
  // The runner and the sync need each other: the sync's autosave is handed to the runner late.
  let sync: SessionSync | null = null;
  // Cases waiting for an endpoint run again through the runner once one answers.
  let runner: AnalysisRunner | null = null;
  const endpointWait = new EndpointWait(() => void runner?.analyze(), model);
  runner = new AnalysisRunner(options.workers, {
    autosave: { schedule: () => sync?.schedule(), saveNow: () => sync?.flush() },
    navigation: nav,
    model,
    endpointWait,
    ...(options.createPool && { createPool: options.createPool }),
  });
  const made = new SessionSync(runner);
  sync = made;
  const opener = new StudyOpener(runner, made, options.importFile);
  const compare = new CompareTarget(() => made.store, nav, runner, () => made.identity?.id ?? null);
  const earlier = new EarlierVersion(runner, (study) => opener.openNewStudy(study, { keepNavigation: true }));
  const trends = new TrendsState(() => made.store, nav, runner);
  const prices = new PriceTable();
  const views = new ViewContext(runner, nav, compare, earlier, trends, prices);
  const runs = new RunsState();
  const replay = new ReplayLauncher({ runs, runner, opener, sessionNames: async () => ((await made.store?.list()) ?? []).map((s) => s.name), keptSetups: new KeptSetups(pageStorage()) });
  return { nav, model, runner, sync: made, opener, compare, earlier, views, runs, replay, prices };
}

/** The page's localStorage, or null where it cannot be used (a sandboxed frame, storage turned off). */
function pageStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
