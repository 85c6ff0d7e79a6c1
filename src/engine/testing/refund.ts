import type { StepDef } from '../types.ts';
import { validatePipeline, type ValidPipeline } from '../pipeline.ts';

/**
 * The refund-policy pipeline of the reference, as a plain object for engine tests: the answer
 * is right iff the planner or retriever is fixed, or (mechanism A) the writer cites sources and
 * the reviewer re-checks cited claims; under mechanism B the reviewer re-checks every claim.
 */
export function refundPipeline(mechanism: 'A' | 'B' = 'A'): ValidPipeline {
  const step = (name: string, inputs: string[], asRun: (x: Record<string, unknown>) => unknown, fix: (x: Record<string, unknown>) => unknown, cost = 1): StepDef => ({
    name,
    inputs,
    cost,
    run: (x) => asRun(x),
    fixes: [{ name: `${name} fix`, cost, run: (x) => fix(x) }],
  });
  return validatePipeline({
    name: `refund-${mechanism}`,
    steps: [
      step('planner', ['question'], () => ({ dated: false }), () => ({ dated: true })),
      step('retriever', ['planner'], ({ planner }) => ((planner as { dated: boolean }).dated ? 'policy-2026' : 'policy-2023'), () => 'policy-2026', 2),
      step('writer', ['retriever'], ({ retriever }) => ({ answer: retriever === 'policy-2026' ? '30 days' : '90 days', cited: false }), ({ retriever }) => ({ answer: retriever === 'policy-2026' ? '30 days' : '90 days', cited: true })),
      step(
        'reviewer',
        ['writer'],
        ({ writer }) => (writer as { answer: string }).answer,
        ({ writer }) => {
          const w = writer as { answer: string; cited: boolean };
          return mechanism === 'A' ? (w.cited ? '30 days' : w.answer) : '30 days';
        },
      ),
    ],
    metric: (out) => (out.reviewer === '30 days' ? 1 : 0),
  });
}
