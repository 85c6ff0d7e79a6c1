/**
 * "Find" in the run view: the next step (after the selected one, wrapping) whose name, agent,
 * model, kind, error or message content contains the query, case-insensitive. Message texts are
 * read once per run and query, only when the cheap fields do not match.
 */
import { readStepMessages, type RecordedRun, type RecordedStep } from '../../runs/index.ts';

function fields(step: RecordedStep): string {
  return `${step.name} ${step.agent ?? ''} ${step.model ?? ''} ${step.error ?? ''} ${step.kind}`.toLowerCase();
}

function messageText(step: RecordedStep): string {
  const text = (which: 'input' | 'output') =>
    readStepMessages(step, which)
      .map((m) => `${m.text} ${(m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`).join(' ')}`)
      .join(' ');
  return `${text('input')} ${text('output')}`.toLowerCase();
}

/** Where a match was found, so the page can say so ("in its messages"). */
export interface StepMatch {
  index: number;
  inMessages: boolean;
}

/** The next matching step after `from` (-1: from the start), wrapping; null when no step matches. */
export function findNextStep(run: RecordedRun, from: number, query: string): StepMatch | null {
  const q = query.trim().toLowerCase();
  const n = run.steps.length;
  if (q === '' || n === 0) return null;
  for (let k = 1; k <= n; k++) {
    const index = (((from + k) % n) + n) % n;
    const step = run.steps[index];
    if (fields(step).includes(q)) return { index, inMessages: false };
    if (messageText(step).includes(q)) return { index, inMessages: true };
  }
  return null;
}

/** Orders run keys the way people count: `algorithm/2` before `algorithm/10`. */
export function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
}
