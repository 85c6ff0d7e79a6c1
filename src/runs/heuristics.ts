/**
 * Attribution baselines that need no replay. Each names one step of a run as
 * the culprit, or none:
 * - last step: the final step before the run stopped (for a failed run, the last thing it did);
 * - first error: the first step that recorded an error, or whose tool output reports a failed
 *   execution (`exitcode: 1`, a Python traceback), as Who&When terminal turns do;
 * - last touch: the last model or agent step that produced output, the last step that could
 *   have written the final answer (turns that only say TERMINATE do not count).
 */
import { readStepMessages } from './messages.ts';
import type { RecordedRun, RecordedStep, RunLabel } from './types.ts';

export type HeuristicName = 'last-step' | 'first-error' | 'last-touch';

export const HEURISTICS: readonly { name: HeuristicName; label: string }[] = [
  { name: 'last-step', label: 'last step' },
  { name: 'first-error', label: 'first error' },
  { name: 'last-touch', label: 'last to touch the output' },
];

const FAILED_EXECUTION = /exitcode:\s*[1-9]|Traceback \(most recent call last\)|execution failed/i;

function outputText(step: RecordedStep): string {
  return readStepMessages(step, 'output').map((m) => m.text).join('\n');
}

function failed(step: RecordedStep): boolean {
  return step.error !== null || (step.kind === 'tool' && FAILED_EXECUTION.test(outputText(step)));
}

function touchesOutput(step: RecordedStep): boolean {
  if (step.kind !== 'llm' && step.kind !== 'agent') return false;
  const text = outputText(step).trim();
  return text !== '' && !/^TERMINATE\.?$/i.test(text);
}

/** The index (in execution order) of the step a heuristic names, or null. */
export function heuristicStep(run: RecordedRun, name: HeuristicName): number | null {
  const steps = run.steps;
  if (steps.length === 0) return null;
  switch (name) {
    case 'last-step':
      return steps.length - 1;
    case 'first-error': {
      const i = steps.findIndex(failed);
      return i < 0 ? null : i;
    }
    case 'last-touch': {
      for (let i = steps.length - 1; i >= 0; i--) if (touchesOutput(steps[i])) return i;
      return null;
    }
  }
}

/** The agent a step belongs to (its recorded agent, else its name). */
export function stepAgent(step: RecordedStep): string {
  return step.agent ?? step.name;
}

/** A heuristic's pick as a prediction `{ agent, step }`, or null when it names no step. */
export function heuristicPrediction(run: RecordedRun, name: HeuristicName): RunLabel | null {
  const index = heuristicStep(run, name);
  return index === null ? null : { agent: stepAgent(run.steps[index]), step: index };
}
