/**
 * The setup panel's outcome fields as the replay's Outcome: expected text, or `/REGEX/flags`
 * (the final answer contains it, or matches), a judge rubric, or a metric file; the command's
 * `--expect`, `--judge` and `--metric`. A blank expected text falls back to the run's recorded
 * correct answer (Who&When's ground_truth) when it has one.
 */
import { expectedOutcome, type Outcome } from '../../replay/index.ts';

export type OutcomeKind = 'expect' | 'judge' | 'metric';

export interface OutcomeFields {
  kind: OutcomeKind;
  expect: string;
  rubric: string;
  metric: { fileName: string; source: string } | null;
}

/**
 * The outcome, `null` for "the run's recorded correct answer", or a problem naming the field.
 * `recorded` is that answer, when the run has one.
 */
export function parseOutcome(fields: OutcomeFields, recorded: string | undefined): { ok: true; outcome: Outcome | null } | { ok: false; problem: string } {
  switch (fields.kind) {
    case 'expect': {
      const text = fields.expect.trim();
      if (text === '') {
        if (recorded !== undefined) return { ok: true, outcome: null };
        return { ok: false, problem: 'Say how success is decided: the expected final answer (text or /regex/), a judge rubric, or a metric file. This run records no correct answer.' };
      }
      const read = expectedOutcome(text);
      return read.ok ? read : { ok: false, problem: `Expected answer: ${text} is not a regular expression (${read.problem}).` };
    }
    case 'judge': {
      const rubric = fields.rubric.trim();
      if (rubric === '') return { ok: false, problem: 'Judge: write the rubric the model judges the final answer by (pass or fail).' };
      return { ok: true, outcome: { kind: 'judge', rubric } };
    }
    case 'metric':
      if (fields.metric === null) return { ok: false, problem: 'Metric: choose a .js file (export default (run) => number).' };
      return { ok: true, outcome: { kind: 'metric', source: fields.metric.source, fileName: fields.metric.fileName } };
  }
}
