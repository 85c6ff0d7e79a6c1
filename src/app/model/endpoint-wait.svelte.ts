/**
 * A definition whose steps call a model, analysed with no usable endpoint: the cases whose requests
 * the stored responses (this browser's, or those a session file or report carries) answer are
 * analysed; the others are not run into an error each, they wait, counted, until an endpoint is set
 * (`resume`, once its connection test passes) or a file with their responses is opened. A base
 * URL that does not answer its connection test counts as none (`check`): one saved on an earlier
 * visit is tested before it is used, so a server that is down makes cases wait, not fail each.
 */
import { isModelFailure, type ModelAnswer } from '../../engine/model-call.ts';
import type { ModelResolver } from '../../pool/contract.ts';
import type { CaseResult } from '../../engine/types.ts';
import type { PageModelHost } from './page-model-host.svelte.ts';
import { modelFileHash } from '../../model/index.ts';

export interface EndpointWaiting {
  /** Cases that wait for an endpoint. */
  cases: number;
  /** Distinct requests they asked that no stored response answers (more may follow their answers). */
  requests: number;
}

export class EndpointWait {
  /** What waits for an endpoint in the current (or last) analysis; null when nothing does. */
  waiting = $state.raw<EndpointWaiting | null>(null);
  /** The analysis in progress has no endpoint: its cases that lack a response wait. */
  #watching = false;
  #cases = new Set<string>();
  #held = new Set<string>();
  #missing = new Set<string>();
  readonly #rerun: () => void;
  readonly #model: PageModelHost | undefined;

  /** `rerun`: analyses the cases without a result (the runner's analyze); `model`: the page's model host. */
  constructor(rerun: () => void, model?: PageModelHost) {
    this.#rerun = rerun;
    this.#model = model;
  }

  /**
   * Before an analysis whose steps call a model: a base URL not yet tested (saved on an earlier
   * visit, or typed while no case waited) gets its connection test first, so the analysis knows
   * whether to send to it (`connection.answers`) or to let the cases that lack a response wait.
   */
  async check(usesModel: boolean): Promise<void> {
    if (usesModel) await this.#model?.check();
  }

  /** The model resolver of a new analysis: its host as it is when it has an endpoint; without one, watched for what nothing answers. */
  resolver(host: ModelResolver & { readonly hasEndpoint: boolean }): ModelResolver {
    this.reset();
    if (host.hasEndpoint) return host;
    this.#watching = true;
    return {
      resolve: async (requests, signal) => {
        const answers = await host.resolve(requests, signal);
        // With no endpoint, the host fails exactly the requests no stored response answers.
        for (const { key, caseId, request } of requests) {
          const answer: ModelAnswer | undefined = answers.get(key);
          // A model file's request was sent to the in-page model: its failure is the case's error, not a wait.
          if (answer !== undefined && isModelFailure(answer) && modelFileHash(request.model) === null) {
            this.#cases.add(caseId);
            this.#missing.add(key);
          }
        }
        return answers;
      },
      usage: (caseId) => host.usage(caseId),
    };
  }

  /**
   * Whether a finished case only waits for an endpoint (it lacked a response): it is then not a
   * result, and runs again once an endpoint is set.
   */
  holds(result: CaseResult): boolean {
    if (!this.#watching || result.error === undefined || !this.#cases.has(result.id)) return false;
    this.#held.add(result.id);
    this.waiting = { cases: this.#held.size, requests: this.#missing.size };
    return true;
  }

  /** An endpoint answered its connection test: the waiting cases run now. */
  resume(): void {
    if (this.waiting !== null) this.#rerun();
  }

  /** Another study, or another analysis: nothing waits any more. */
  reset(): void {
    this.#watching = false;
    this.#cases = new Set();
    this.#held = new Set();
    this.#missing = new Set();
    this.waiting = null;
  }
}
