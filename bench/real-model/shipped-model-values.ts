/**
 * Mean Shapley values of the two model demos on the shipped tiny model (public/models/stories260K.gguf),
 * as the command gives them with `--model-file` (node-llama-cpp): the in-page model must give the
 * same (e2e/in-page-model.spec.ts), and model-file.real.ts checks the command still does. Computed
 * with node-llama-cpp 3.21.1; a tiny base model follows no instructions, so most metrics fail on it.
 */
export const SHIPPED_MODEL_SHAPLEY = {
  'order-desk': { extract: 0.25, route: 0, reply: 0.25 },
  'support-triage': { classify: 0, lookup: 0, draft: 0, review: 0 },
} as const;
