import type { PipelineDescription } from '../../sandbox/analyze-source.ts';
import type { DefinitionProblem, DefinitionSummary } from './protocol.ts';

/** The page's view of a compiled definition. */
export function toSummary(description: PipelineDescription): DefinitionSummary {
  return {
    name: description.name,
    steps: description.steps.map((step) => ({ name: step.name, inputs: step.inputs, cost: step.cost, fixes: step.fixes.map((fix) => fix.name) })),
    cases: description.cases,
    threshold: description.threshold ?? 1,
    ...(description.models ? { models: description.models } : {}),
  };
}

/**
 * A compile error as plain data, with the line and column of the user's file when the message
 * names one (`pipeline.js:12:5: ...`), so the source view can mark that line.
 */
export function describeProblem(error: unknown, fileName = 'pipeline.js'): DefinitionProblem {
  const message = error instanceof Error ? error.message : String(error);
  const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const position = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(message);
  return position ? { message, line: Number(position[1]), column: Number(position[2]) } : { message };
}
