import { inputProblem, WhySelectionError, type WhyInputNames } from '../../why/index.ts';

/**
 * The panel's own names for the inputs of a why question: the call is the step shown (its problems
 * say which step), the pattern is the Match field. The command's flags never reach the page.
 */
export const WHY_PANEL_NAMES: WhyInputNames = { call: '', match: 'Match' };

/** Why the step's call cannot be explained, in the panel's words. */
export function selectionProblem(error: unknown): string {
  if (error instanceof WhySelectionError) return inputProblem(error, WHY_PANEL_NAMES);
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why "Run why" cannot start yet, or null when it can. The endpoint problem names the panel's own
 * Endpoint field: the Model panel shows only for studies whose steps call a model, so the run view
 * may have none to point to.
 */
export function whyProblem(input: { call: unknown; hasModel: boolean; urlProblem: string | null; model: string }): string | null {
  if (typeof input.call === 'string') return input.call;
  if (!input.hasModel) return 'No model connection in this page.';
  if (input.urlProblem) return `Endpoint (above): ${input.urlProblem}`;
  if (input.model === '') return 'This step records no model: name one.';
  return null;
}
