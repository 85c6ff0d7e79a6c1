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
