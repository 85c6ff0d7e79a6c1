/**
 * An in-process stand-in for the page's analysis pool, for the state classes' tests: a definition
 * "compiles" unless its source contains `syntax error`, and its steps are named by a
 * `steps: a, b` line; a case's result depends on the settings (its cost is the seed plus one), so
 * a test sees which settings a result was analysed under. Cases whose id starts with `slow` wait
 * until `release()` is called, so a test can look at a running analysis and stop it. Cases whose
 * id starts with `model` first ask the job's model host one request of their own (model
 * `fake-model`), as a model step does; an answer that is a failure fails the case.
 */
import { isModelFailure, requestKey } from '../../engine/model-call.ts';
import { errorResult } from '../../engine/case-result.ts';
import { testResult } from '../../engine/testing/results.ts';
import type { CaseResult } from '../../engine/types.ts';
import type { PoolJob, WorkItem } from '../../pool/page/analysis-pool.ts';
import type { DefinitionSummary, LoadOutcome } from '../../pool/page/protocol.ts';

/** The steps a fake definition names (`steps: plan, act`), or two default ones. */
export function fakeSteps(source: string): string[] {
  const line = /steps:\s*([^\n]*)/.exec(source);
  return line ? line[1].split(',').map((s) => s.trim()).filter((s) => s !== '') : ['plan', 'act'];
}

/** The summary the fake pool answers for a definition that compiles. */
export function fakeSummary(source: string, extra: Partial<DefinitionSummary> = {}): DefinitionSummary {
  const name = /\bname\s*:\s*["'`]([^"'`\n]+)["'`]/.exec(source)?.[1] ?? 'fake-pipeline';
  return { name, steps: fakeSteps(source).map((step) => ({ name: step, inputs: [], cost: 1, fixes: ['oracle', 'repair'] })), cases: [], threshold: 1, range: [0, 1], ...extra };
}

/** The result the fake pool gives an item under a job's settings. */
export function fakeResult(item: WorkItem, job: Pick<PoolJob, 'settings' | 'players'>): CaseResult {
  const id = item.kind === 'case' ? item.caseDef.id : item.game.id;
  const players = item.kind === 'case' ? [...job.players] : [...item.game.players];
  const passed = item.kind === 'case' && item.caseDef.inputs.pass === true;
  return testResult({ id, players, failed: !passed, cost: job.settings.seed + 1, shapley: Object.fromEntries(players.map((p, k) => [p, k === 0 ? 1 : 0])) });
}

export class FakePool {
  caseTimeoutMs = 10_000;
  /** Sources loaded, in order. */
  readonly loads: string[] = [];
  /** Jobs run, in order (their items and settings). */
  readonly jobs: PoolJob[] = [];
  disposed = 0;
  /** What `load` answers beyond the summary (e.g. the definition's own cases). */
  summaryExtra: Partial<DefinitionSummary> = {};
  #release: (() => void) | null = null;
  #gate: Promise<void> = this.#newGate();
  #waiting: (() => void) | null = null;

  /** Resolves when the next `slow*` case starts waiting for `release()`. */
  whenWaiting(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  #newGate(): Promise<void> {
    return new Promise((resolve) => {
      this.#release = resolve;
    });
  }

  /** Lets the `slow*` cases waiting now finish (later ones wait for the next call). */
  release(): void {
    this.#release?.();
    this.#gate = this.#newGate();
  }

  async load(source: string, _fileName: string): Promise<LoadOutcome> {
    this.loads.push(source);
    await Promise.resolve();
    if (source.includes('syntax error')) return { ok: false, problem: { message: 'Unexpected token (1:7)', line: 1, column: 7 } };
    return { ok: true, summary: fakeSummary(source, this.summaryExtra) };
  }

  async run(job: PoolJob, signal: AbortSignal): Promise<'done' | 'cancelled'> {
    this.jobs.push(job);
    const aborted = new Promise<'cancelled'>((resolve) => signal.addEventListener('abort', () => resolve('cancelled'), { once: true }));
    for (const item of job.items) {
      const id = item.kind === 'case' ? item.caseDef.id : item.game.id;
      if (id.startsWith('slow')) this.#waiting?.();
      if (id.startsWith('slow') && (await Promise.race([this.#gate, aborted])) === 'cancelled') return 'cancelled';
      if (signal.aborted) return 'cancelled';
      if (id.startsWith('model') && job.model) {
        const request = { model: 'fake-model', messages: [{ role: 'user' as const, content: `case ${id}` }] };
        // A cancelled request fails its case; the run's end says it was cancelled.
        const key = requestKey(request);
        const answers = await job.model.resolve([{ key, request, step: job.players[0] ?? 'step', caseId: id }], signal).catch(() => undefined);
        if (signal.aborted) return 'cancelled';
        // A request the host could not get fails the case, as in the real pool.
        const answer = answers?.get(key);
        if (answer !== undefined && isModelFailure(answer)) {
          job.onResult(item.index, errorResult(id, job.players, job.settings, `step "${job.players[0] ?? 'step'}": ${answer.error}`));
          continue;
        }
      }
      await Promise.resolve();
      job.onResult(item.index, fakeResult(item, job));
    }
    return signal.aborted ? 'cancelled' : 'done';
  }

  dispose(): void {
    this.disposed++;
  }
}
