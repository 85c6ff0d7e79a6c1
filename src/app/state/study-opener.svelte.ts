/**
 * Opens studies: dropped, picked or pasted files (imported in a worker), demos, `?trace=` files,
 * definitions paired with the open trace, and stored sessions. A new study becomes a new session
 * of the injected autosave; a stored one is continued. What went wrong becomes the banner notice.
 */
import type { AnalysisSettings, CaseResult } from '../../engine/types.ts';
import { toTableGames } from '../../session/games.ts';
import type { Session } from '../../session/types.ts';
import { mergeStudySessions, type NamedSession } from '../../session/merge-study.ts';
import type { RecordedRunFile, Predictions } from '../../runs/index.ts';
import { importInWorker } from '../importing/import-client.ts';
import type { ImportProblem, ImportProgress } from '../importing/import-protocol.ts';
import type { Study } from '../importing/study.ts';
import { DEMOS, fetchDemo, fetchDemoResponses, isDemoFile } from '../landing/demos.ts';
import { validateCacheEntry } from '../../model/index.ts';
import type { AnalysisRunner } from './analysis-runner.svelte.ts';
import type { SessionSync } from './session-sync.svelte.ts';

/** A problem to show in the banner: what went wrong and with which file. */
export interface Notice {
  title: string;
  problem: ImportProblem;
  /** What the user can do about it, as a button beside the message. */
  action?: { label: string; run: () => void };
}

/** How a study is opened: settings to apply (from a link) and whether the view set beforehand stays. */
export interface OpenOptions {
  settings?: Partial<AnalysisSettings>;
  keepNavigation?: boolean;
  /** The shipped demo it is, so the address names the demo while its first analysis runs. */
  demo?: string;
}

/** How a stored session is opened: whether the view set beforehand stays, and the demo its link names. */
export interface StoredOpenOptions {
  keepNavigation?: boolean;
  demo?: string | null;
}

export class StudyOpener {
  importing = $state.raw<(ImportProgress & { fileName: string }) | null>(null);
  notice = $state.raw<Notice | null>(null);
  /** Where the open study came from, for links: a demo id, or nothing (a stored session is the sync's). */
  demo = $state<string | null>(null);

  readonly #runner: AnalysisRunner;
  readonly #sync: SessionSync;
  readonly #importFile: typeof importInWorker;

  /** `importFile` reads a file off the page's thread (tests read it in-process). */
  constructor(runner: AnalysisRunner, sync: SessionSync, importFile: typeof importInWorker = importInWorker) {
    this.#runner = runner;
    this.#sync = sync;
    this.#importFile = importFile;
  }

  /** Recorded runs and predictions go to the run view (src/app/runs/), not to the analysis; `source` is the file read. */
  onRecordedRuns: ((input: { runs?: RecordedRunFile; predictions?: Predictions }, fileName: string, source: Blob | string) => void) | null = null;
  /** Many files at once: the run view takes those holding recorded runs and returns the rest. */
  onManyFiles: ((files: readonly File[]) => Promise<File[]>) | null = null;

  /** Opens dropped or picked files: traces and games first, then `.js` definitions to pair with them. */
  async openFiles(files: readonly File[]): Promise<void> {
    if (files.length > 1 && this.onManyFiles) files = await this.onManyFiles(files);
    const ordered = [...files].sort((a, b) => Number(isDefinitionFile(a.name)) - Number(isDefinitionFile(b.name)));
    // Several session files dropped together are parts of one study: merged, as the command merges them.
    const sessions: NamedSession[] | undefined = files.length > 1 ? [] : undefined;
    for (const file of ordered) await this.openSource(file, file.name, {}, sessions);
    if (sessions && sessions.length > 0) await this.openSessionFiles(sessions);
  }

  /** Opens session files dropped together: one as it is, several merged into one study (docs/shards.md). */
  async openSessionFiles(sessions: readonly NamedSession[]): Promise<void> {
    if (sessions.length === 1) return this.openSessionFile(sessions[0].session);
    let merged;
    try {
      merged = mergeStudySessions(sessions, { allowPartial: true });
    } catch (error) {
      this.notice = { title: `Could not merge ${sessions.length} session files`, problem: { message: error instanceof Error ? error.message : String(error) } };
      return;
    }
    const opening = this.openSessionFile(merged.session);
    // A partial merge opens as a study to resume: the missing cases are analysed here.
    if (merged.missing.length > 0) this.notice = { title: `Merged ${sessions.length} session files; some cases had no result`, problem: { message: merged.missingText } };
    await opening;
  }

  /**
   * Opens a file's contents (a Blob, or text from paste, a demo or `?trace=`). A session file is
   * opened, or added to `sessions` when given (files dropped together, merged by openFiles).
   */
  async openSource(source: Blob | string, fileName: string, options: OpenOptions = {}, sessions?: NamedSession[]): Promise<void> {
    this.notice = null;
    this.importing = { phase: 'reading', loaded: 0, total: typeof source === 'string' ? source.length : source.size, fileName };
    try {
      const imported = await this.#importFile(source, fileName, (progress) => {
        this.importing = { ...progress, fileName };
      });
      if (!imported.ok) {
        this.notice = { title: `Could not open ${fileName}`, problem: imported.problem };
        return;
      }
      const { outcome } = imported;
      this.importing = null;
      if (outcome.kind === 'session' && outcome.session) {
        if (sessions) sessions.push({ file: fileName, session: outcome.session });
        else await this.openSessionFile(outcome.session);
        return;
      }
      if ((outcome.kind === 'runs' || outcome.kind === 'predictions') && this.onRecordedRuns) {
        this.onRecordedRuns({ runs: outcome.runs, predictions: outcome.predictions }, fileName, source);
        return;
      }
      if (outcome.kind === 'pipeline' && outcome.pipeline) {
        await this.pairDefinition(outcome.pipeline, fileName);
        return;
      }
      await this.openNewStudy(
        {
          fileName,
          name: outcome.pipeline?.name ?? outcome.name ?? fileName.replace(/\.(trace|game)?\.?jsonl?$/i, ''),
          ...(outcome.pipeline ? { pipeline: outcome.pipeline } : {}),
          cases: imported.cases,
          games: imported.games,
          // A dropped file's date is when its cases were recorded, until the user says otherwise.
          ...(source instanceof File && Number.isFinite(source.lastModified) && { meta: { version: 1 as const, recordedAt: new Date(source.lastModified).toISOString(), recordedFrom: 'file' as const, tags: [] } }),
        },
        options,
      );
    } catch (error) {
      this.notice = { title: `Could not open ${fileName}`, problem: { message: error instanceof Error ? error.message : String(error) } };
    } finally {
      this.importing = null;
    }
  }

  async openDemo(id: string, options: OpenOptions = {}): Promise<void> {
    try {
      if (DEMOS.find((d) => d.id === id)?.responses) {
        // Validated like any untrusted cache: an entry must answer the request it was made for.
        const entries = (await fetchDemoResponses(id)).flatMap((raw, k) => {
          try {
            return [validateCacheEntry(raw, `${id}.responses.jsonl line ${k + 1}`)];
          } catch {
            return [];
          }
        });
        await this.#runner.model.store.putMany(entries);
      }
      // A demo opened before is its stored session (newest first), not another identical entry;
      // a link with settings of its own opens the demo afresh.
      if (!options.settings || Object.keys(options.settings).length === 0) {
        const stored = (await this.#sync.store?.list().catch(() => []))?.find((summary) => isDemoFile(id, summary.fileName));
        if (stored && (await this.openStored(stored.id, { keepNavigation: options.keepNavigation, demo: id }))) return;
      }
      const { text, fileName } = await fetchDemo(id);
      await this.openSource(text, fileName, { ...options, demo: id });
      if (this.#runner.study?.fileName === fileName) this.demo = id;
    } catch (error) {
      this.notice = { title: 'Could not open the demo', problem: { message: (error as Error).message } };
    }
  }

  /** A `.js` definition: pairs with the open trace, or opens on its own cases when none is open. */
  async pairDefinition(pipeline: { name: string; source: string }, fileName: string): Promise<void> {
    const study = this.#runner.study;
    if (study && study.games.length === 0) {
      await this.#runner.openStudy({ ...study, pipeline, definitionFile: fileName }, { keepSettings: true });
      return;
    }
    await this.openNewStudy({ fileName, name: pipeline.name, pipeline, definitionFile: fileName, cases: [], games: [] });
  }

  /** A study from a file: it becomes a new session. */
  async openNewStudy(study: Study, options: OpenOptions = {}): Promise<void> {
    this.demo = options.demo ?? null;
    this.#sync.startNew(study.name);
    const settings = options.settings ? { ...this.#runner.defaultSettings(), ...options.settings } : undefined;
    await this.#runner.openStudy(study, { ...(settings ? { settings } : {}), keepNavigation: options.keepNavigation === true });
  }

  /**
   * A session file or report that was opened: stored (when storage works), then continued. Its
   * model responses stay with it (the study's own, behind this browser's response store), never
   * in the store itself, so a forged file cannot change what any other study gets.
   */
  async openSessionFile(session: Session): Promise<void> {
    const store = this.#sync.store;
    const stored = store
      ? await store.importSession(session).catch((error: unknown) => {
          this.#sync.problem = error;
          return null;
        })
      : null;
    await this.openSession(stored ?? session);
  }

  /** Continues a stored session: its settings and results, resumed if it was interrupted. */
  async openSession(session: Session, options: StoredOpenOptions = {}): Promise<void> {
    // Set before the study opens, so its first address already names the demo it came from.
    this.demo = options.demo != null && isDemoFile(options.demo, session.fileName) ? options.demo : null;
    this.#sync.adopt(session);
    const results: CaseResult[] = session.results;
    await this.#runner.openStudy(
      {
        fileName: session.fileName,
        name: session.name,
        ...(session.pipeline ? { pipeline: session.pipeline } : {}),
        cases: session.cases,
        games: session.games ? toTableGames(session.games) : [],
        ...(session.modelCache && { modelResponses: session.modelCache }),
        ...(session.contrast && { contrast: session.contrast }),
        ...(session.meta && { meta: session.meta }),
      },
      {
        settings: session.settings,
        results,
        autoRun: session.status === 'done' || session.status === 'idle',
        stopped: session.status === 'cancelled',
        keepNavigation: options.keepNavigation === true,
        // The batch choices it was analysed under (a session without them: the defaults).
        batch: { bound: session.study?.batchBound ?? 'normal', stop: session.study?.batchStop === true, rule: session.study?.batchStopRule ?? 'top' },
      },
    );
  }

  /** Opens a session stored in this browser by id. */
  async openStored(id: string, options: StoredOpenOptions = {}): Promise<boolean> {
    const session = await this.#sync.store?.get(id);
    if (session) {
      await this.openSession(session, options);
      return true;
    }
    this.notice = { title: 'Could not open the session', problem: { message: `Session ${id} is not stored in this browser (deleted in another tab?).` } };
    return false;
  }

  /** Closes the study and returns to the landing page. */
  close(): void {
    // Cancelled first, so a running analysis is saved as stopped (not as interrupted); the
    // autosave takes its last snapshot before the runner forgets the study.
    this.#runner.cancel();
    this.#sync.detach();
    this.#runner.close();
    this.notice = null;
    this.demo = null;
  }
}

function isDefinitionFile(name: string): boolean {
  return /\.(m?js)$/i.test(name);
}
