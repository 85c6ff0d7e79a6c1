/**
 * "Why this decision?" for one model step of the run view: the method runs in a worker
 * (why.worker.ts); its reruns come back here to a job of the page's model host (the Model panel's
 * endpoint as it is when the run starts, its request time limit and ask-before guard, this
 * browser's response store: each distinct request once, cached, counted). Cancel terminates the
 * worker and aborts the requests in flight.
 */
import * as Comlink from 'comlink';
import type { RecordedRun } from '../../runs/index.ts';
import { type WhyMessage, type RerunVariant, candidateFixes, type FixResult, hostRerun, rerunRequestOf, type WhyResult, selectCall, type SelectedCall, callDigest, CHECK_FORMAT, CHECK_VERSION, type CheckFile } from '../../why/index.ts';
import type { WhyWorkerApi } from './why.worker.ts';
import { selectionProblem } from './why-problem.ts';
import { RerunLog } from './rerun-log.svelte.ts';
import { pageWords } from '../model/page-words.ts';
import type { PageModelHost, PageModelJob } from '../model/page-model-host.svelte.ts';

/** Where a why run's reruns go: the page's model host. */
export type WhyModel = Pick<PageModelHost, 'open' | 'connection'>;

export const WHY_MODEL_CONTEXT = 'agentblame:why-model';

export interface WhySettings {
  runs: number;
  budget: number;
  match: string;
  model: string;
}

export class WhyRun {
  status = $state<'idle' | 'running' | 'done' | 'error' | 'cancelled'>('idle');
  stage = $state('');
  calls = $state(0);
  cacheHits = $state(0);
  /** What the reruns said once (the endpoint refused the tools, answers wrote their calls as text): the question changed, never silently. */
  rerunNotes = $state.raw<string[]>([]);
  result = $state.raw<WhyResult | null>(null);
  fixes = $state.raw<FixResult[] | null>(null);
  error = $state<string | null>(null);
  /** Every rerun's answer, with the change to the context it was asked of and whether it counted as the decision. */
  readonly reruns = new RerunLog();
  #worker: Worker | null = null;
  #abort: AbortController | null = null;
  /** The model host of the stage running (or last run): its requests, and the ask-before pause. */
  job = $state.raw<PageModelJob | null>(null);
  #call: SelectedCall | null = null;

  /** The call and its decision, or the reason it cannot be explained (in the panel's words: the Match field, never a flag). */
  static select(run: RecordedRun, index: number, match: string): SelectedCall | string {
    try {
      return selectCall(run, String(index), match === '' ? undefined : match);
    } catch (error) {
      return selectionProblem(error);
    }
  }

  async start(call: SelectedCall, settings: WhySettings, model: WhyModel): Promise<void> {
    this.cancel();
    this.status = 'running';
    this.result = null;
    this.fixes = null;
    this.error = null;
    this.calls = 0;
    this.cacheHits = 0;
    this.rerunNotes = [];
    this.reruns.clear();
    this.#call = call;
    await this.#inWorker(settings, model, async (api, rerun) => {
      this.result = await api.explain(call.messages, call.predicate, call.recorded, { runs: settings.runs, budget: settings.budget }, rerun, Comlink.proxy((p: { calls: number; stage: string }) => {
        this.stage = p.stage;
      }));
    });
  }

  async tryFixes(settings: WhySettings, model: WhyModel): Promise<void> {
    const call = this.#call;
    const result = this.result;
    if (!call || !result) return;
    this.status = 'running';
    this.stage = 'fixes';
    await this.#inWorker(settings, model, async (api, rerun) => {
      this.fixes = await api.fixes(call.messages, call.predicate, result.base, candidateFixes(call.messages, call.predicate, result), rerun, settings.runs);
    });
  }

  cancel(): void {
    if (this.status === 'running') this.status = 'cancelled';
    this.#abort?.abort();
    this.job?.cancel();
    this.#worker?.terminate();
    this.#worker = null;
  }

  async #inWorker(settings: WhySettings, model: WhyModel, body: (api: Comlink.Remote<WhyWorkerApi>, rerun: (m: WhyMessage[], r: number[], variant?: RerunVariant) => Promise<import('../../why/index.ts').Reply[]>) => Promise<void>): Promise<void> {
    // Opened per stage: an endpoint typed since the last one is the one used.
    this.job?.finish();
    const job = (this.job = model.open());
    const host = job.host;
    const hitsBefore = this.cacheHits;
    const abort = (this.#abort = new AbortController());
    const worker = (this.#worker = new Worker(new URL('./why.worker.ts', import.meta.url), { type: 'module', name: 'agentblame-why' }));
    const api = Comlink.wrap<WhyWorkerApi>(worker);
    const rerunHere = hostRerun(host, { model: settings.model, seed: 1, call: this.#call!.index, ...rerunRequestOf(this.#call!.step), onNote: (note) => (this.rerunNotes = [...this.rerunNotes, pageWords(note)]) });
    const predicate = this.#call!.predicate;
    const rerun = Comlink.proxy(async (m: WhyMessage[], r: number[], variant?: RerunVariant) => {
      const replies = await rerunHere(m, r, abort.signal);
      // Counted here, as answers arrive, so the progress moves during a slow stage.
      if (!abort.signal.aborted) {
        this.calls += replies.length;
        this.reruns.add(predicate, variant, r, replies);
      }
      this.cacheHits = hitsBefore + host.usage('why').cacheHits;
      return replies;
    });
    try {
      await body(api, rerun);
      if (this.#worker === worker) this.status = 'done';
    } catch (error) {
      if (this.#worker === worker && !abort.signal.aborted) {
        this.status = 'error';
        // A rerun's failure is the model layer's message, written for the command and the page: the page's half.
        this.error = pageWords(error instanceof Error ? error.message : String(error));
      }
    } finally {
      if (this.#worker === worker) {
        worker.terminate();
        this.#worker = null;
      }
      job.finish();
    }
  }
}

/**
 * The check file of a finished run (docs/why.md): the best passing fix (rules before removing
 * content), or none when no fix was tried or none passed (a check that fails while the model
 * still makes this decision). `trace.file` is the file's name: keep the check beside the trace.
 */
export function checkOf(call: SelectedCall, run: RecordedRun, fileName: string, settings: WhySettings, fixes: readonly FixResult[] | null): CheckFile {
  const best = fixes?.find((f) => f.verdict === 'PASS');
  return {
    format: CHECK_FORMAT,
    version: CHECK_VERSION,
    trace: { file: fileName, run: run.id, digest: callDigest(call.messages, call.recorded) },
    call: { index: call.index, step: call.step.id },
    predicate: call.predicate,
    fix: best ? { name: best.name, ...(best.addSystem !== undefined && { addSystem: best.addSystem }), ...(best.remove !== undefined && { remove: best.remove }), ...(best.fill !== undefined && { fill: best.fill }) } : null,
    runs: settings.runs,
    model: settings.model,
    seed: 1,
  };
}

/** Where a piece's text is in its message's recorded text (for the highlight), or null. */
export function highlightIn(messageText: string, pieceText: string): { start: number; end: number } | null {
  let at = messageText.indexOf(pieceText);
  if (at >= 0) return { start: at, end: at + pieceText.length };
  const escaped = JSON.stringify(pieceText).slice(1, -1);
  at = messageText.indexOf(escaped);
  return at >= 0 ? { start: at, end: at + escaped.length } : null;
}
