import type { AttributedCaseResult, LlmMessage } from '../types.ts';
import { canonicalize } from '../canonical.ts';
import { ownValue } from '../named-record.ts';
import { outputText } from '../repairs/training-pairs.ts';

/** The judge's two options; the score is its probability of the first. */
export const JUDGE_OPTIONS = ['yes', 'no'] as const;

/** Characters of one output the judge is shown (the rest is cut, so prompts stay within the request limit). */
const OUTPUT_CHARS = 2_000;

const shown = (value: unknown) => {
  const text = outputText(value);
  return text.length > OUTPUT_CHARS ? `${text.slice(0, OUTPUT_CHARS)} [cut]` : text;
};

/**
 * The messages of the LLM-judge credit question for one step of a failed case, as the
 * credit-assignment audit's judge family asks it: the rubric, then the step under review with its
 * output first, then the task's inputs and every step's output as run.
 */
export function judgeMessages(rubric: string, r: AttributedCaseResult, caseInputs: Readonly<Record<string, unknown>>, step: string): LlmMessage[] {
  const outputs = r.factualOutputs ?? {};
  const transcript = r.players.map((s, k) => `${k + 1}. ${s}: ${shown(ownValue(outputs, s))}`).join('\n');
  return [
    { role: 'system', content: rubric },
    {
      role: 'user',
      content:
        `A run of a pipeline failed. Step under review: "${step}".\nIts output: ${shown(ownValue(outputs, step))}\n\n` +
        `The task's inputs: ${canonicalize(caseInputs)}\nEvery step's output as run, in order:\n${transcript}\n\n` +
        'Was the step under review the decisive error: the step whose correction would have repaired the run?',
    },
  ];
}

/** The judge's probability of "yes" from the logits of its two options (a softmax over them). */
export function judgeScore(logits: Readonly<Record<string, number>>): number {
  const yes = logits.yes;
  const no = logits.no;
  if (yes === -Infinity) return 0;
  if (no === -Infinity) return 1;
  return 1 / (1 + Math.exp(no - yes));
}
