import { ReplayError, StepSuspended } from './errors.ts';
import { MAX_MODEL_REQUESTS_PER_CASE } from './limits.ts';
import { isModelFailure, requestKey, type ChatRequest, type ModelAnswer, type ModelResponse, type PendingRequest } from './model-call.ts';

/**
 * Answers a request at once, while the case waits (a host that can block: the command's worker
 * threads), instead of the round suspending; null declines (the host gave up: no more requests
 * are answered this way and the round goes on as without a resolver). docs/method.md, "Model steps".
 */
export type WaitingResolver = (request: PendingRequest) => ModelAnswer | null;

/**
 * What one round of a case's analysis knows about model responses (docs/method.md, "Model
 * steps"): the answers the host has fetched so far, the model ids by alias, and the requests
 * asked for but not answered yet. A lookup that misses records the request and suspends the step;
 * the engine then drops that replay, and the host fetches everything pending and runs the round
 * again with the larger answer set. Answers never change within a run, so replays stay pure.
 * With a waiting resolver (a host that can block), a miss is answered on the spot instead and the
 * round goes on: the same result as the rounds it saves, without replaying the case from the start.
 */
export class ModelContext {
  readonly pending = new Map<string, PendingRequest>();
  /** Distinct keys answered in this round (for accounting: which cached responses the case used). */
  readonly used = new Set<string>();
  /** What ended the running step's model calls: a suspension or a failure (null: nothing). */
  private interruption: StepSuspended | ReplayError | null = null;
  /**
   * Set when the case asked for more distinct requests than MAX_MODEL_REQUESTS_PER_CASE: the
   * case fails with it, and what is pending is never fetched.
   */
  overLimit: ReplayError | null = null;

  /** Answers got from the waiting resolver in this round (beside `answers`, which stay as given). */
  private readonly waited = new Map<string, ModelAnswer>();
  /** Requests the waiting resolver answered in this round. */
  waits = 0;

  constructor(
    private readonly answers: ReadonlyMap<string, ModelAnswer>,
    readonly models: Readonly<Record<string, string>> = {},
    /** The extra endpoint parameters of an alias (model-params.ts), or undefined. */
    readonly paramsOf: (alias: string) => Record<string, unknown> | undefined = () => undefined,
    private resolveWaiting: WaitingResolver | null = null,
  ) {}

  /** The model id of an alias; a clear error when the study does not map it. */
  modelId(alias: string, step: string, call: string): string {
    if (Object.hasOwn(this.models, alias)) return this.models[alias];
    const known = Object.keys(this.models);
    const hint = alias === 'default' ? 'set the default model (the command: --model ID; the page: Settings > Model)' : `map it (the command: --model ${alias}=ID; the page: Settings > Model > Other aliases)`;
    throw new ReplayError(`step "${step}": ${call} asks for model "${alias}", which this study does not map to a model id (${known.length ? `known: ${known.join(', ')}` : 'none is set'}); ${hint}`, step);
  }

  /** Called by the engine before a step execution. */
  /** Model calls made so far (answered or not): an execution that made none did not depend on the model. */
  lookups = 0;

  beginStep(): void {
    this.interruption = null;
  }

  /**
   * Called by the engine after a step execution (returned or threw): the suspension (it asked for
   * something unknown) or failure (a request the host could not get) to raise instead of its
   * outcome, whatever the step did with the throw; null when its calls were all answered.
   */
  endStep(): StepSuspended | ReplayError | null {
    const interruption = this.interruption;
    this.interruption = null;
    return interruption;
  }

  /**
   * The response to `request`, or a suspension: a miss records the request as pending, marks the
   * running step as suspended (so catching the throw does not help it) and throws StepSuspended.
   * A request the host could not get throws a ReplayError quoting the host's message.
   */
  lookup(request: ChatRequest, step: string, call: string): ModelResponse {
    this.lookups++;
    const key = requestKey(request);
    let answer = this.answers.get(key) ?? this.waited.get(key);
    if (answer === undefined && this.resolveWaiting !== null && this.overLimit === null && this.pending.size === 0 && this.answers.size + this.waited.size < MAX_MODEL_REQUESTS_PER_CASE) {
      // Only while nothing is pending: after a suspension the round's values are stand-ins.
      answer = this.resolveWaiting({ key, request, step }) ?? undefined;
      if (answer === undefined) this.resolveWaiting = null;
      else {
        this.waits++;
        this.waited.set(key, answer);
      }
    }
    if (answer === undefined) {
      if (this.overLimit === null && !this.pending.has(key) && this.answers.size + this.waited.size + this.pending.size >= MAX_MODEL_REQUESTS_PER_CASE) {
        this.overLimit = new ReplayError(`step "${step}": ${call} asks for more than ${MAX_MODEL_REQUESTS_PER_CASE} distinct model requests in one case (the limit; a step's requests must not grow without bound)`, step);
      }
      if (this.overLimit !== null) {
        // Wins over a suspension: this case is over, whatever the step does with the throw.
        this.interruption = this.overLimit;
        throw this.overLimit;
      }
      if (!this.pending.has(key)) this.pending.set(key, { key, request, step });
      // A suspension wins over an earlier failure in the same step: the round is redone anyway.
      this.interruption = new StepSuspended(step);
      throw this.interruption;
    }
    if (isModelFailure(answer)) {
      // A failed request fails the case even if the step catches it: a fallback would make the
      // result depend on whether the endpoint happened to answer this time.
      const failure = new ReplayError(`step "${step}": ${call} failed: ${answer.error}`, step);
      // Neither replaces the over-limit error, which ends the case.
      if (this.interruption === null || (this.interruption instanceof ReplayError && this.interruption !== this.overLimit)) this.interruption = failure;
      throw failure;
    }
    this.used.add(key);
    return answer;
  }
}
