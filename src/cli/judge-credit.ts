/**
 * --judge-credit RUBRIC: an LLM-judge credit signal for the audit, made from the study's own
 * results. One `llm.choose`-style request per step of each analysed failure ("was this step the
 * decisive error? yes / no"), sent through the command's model host (so cached, each distinct
 * request once, --offline honoured); the score is the judge's probability of "yes".
 */
import type { AttributedCaseResult, CaseDef } from '../engine/types.ts';
import { chooseRequest, labelLogits } from '../engine/step-llm.ts';
import { isModelFailure, requestKey, type ModelUsage } from '../engine/model-call.ts';
import { JUDGE_OPTIONS, judgeMessages, judgeScore } from '../engine/audit/judge-prompt.ts';
import type { ModelOptions } from './args.ts';
import { FormatError } from '../formats/format-error.ts';

export interface JudgedCredit {
  /** Scores by case and step, the `judge` signal of an agentblame-credit file. */
  scores: Record<string, Record<string, number>>;
  usage: ModelUsage;
}

/** Bad input for the judge (no model, no outputs, an endpoint failure): one line, exit 2. */
function problem(message: string): FormatError {
  return new FormatError('', `--judge-credit: ${message}`);
}

export async function judgeCredit(rubric: string, failures: readonly AttributedCaseResult[], cases: readonly CaseDef[], flags: ModelOptions, models: Record<string, string> | undefined): Promise<JudgedCredit> {
  const model = models?.default;
  if (model === undefined) throw problem('name the judge model with --model ID (and the endpoint with --model-url URL or a --cache)');
  if (failures.some((r) => !r.factualOutputs)) throw problem('the judge reads each step\'s output as run, which game files do not have: judge a pipeline or trace');
  const { commandModelHost } = await import('../model/index.node.ts');
  let made;
  try {
    made = commandModelHost(flags, models, process.env);
  } catch (e) {
    throw problem((e as Error).message);
  }
  if (!made) throw problem('no model to ask: give --model-url URL, or --cache FILE with --offline');
  const asks = failures.flatMap((r) => {
    const inputs = cases.find((c) => c.id === r.id)?.inputs ?? {};
    return r.players.map((step) => {
      const request = chooseRequest({ messages: judgeMessages(rubric, r, inputs, step), options: JUDGE_OPTIONS }, JUDGE_OPTIONS, model);
      return { caseId: r.id, step, key: requestKey(request), request };
    });
  });
  const answers = await made.host.resolve(asks);
  const scores: Record<string, Record<string, number>> = Object.create(null);
  for (const ask of asks) {
    const answer = answers.get(ask.key);
    if (!answer || isModelFailure(answer)) throw problem(`case "${ask.caseId}", step "${ask.step}": ${answer ? answer.error : 'no answer'}`);
    let logits;
    try {
      logits = labelLogits(answer, JUDGE_OPTIONS, ask.step);
    } catch (e) {
      throw problem(`case "${ask.caseId}": ${(e as Error).message}`);
    }
    scores[ask.caseId] ??= Object.create(null);
    scores[ask.caseId][ask.step] = judgeScore(logits);
  }
  return { scores, usage: made.host.totalUsage() };
}
