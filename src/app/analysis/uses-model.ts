import type { DefinitionSummary } from '../../engine/definition-summary.ts';

/**
 * `llm.chat(`, `llm.choose(` (also through `?.`), `{ llm }` or `{ llm: ask }` taking the capability
 * apart, or `tools.llm`: the ways a definition reaches the model (docs/model-steps.md).
 */
const LLM_USE = /\bllm\s*\??\.\s*(?:chat|choose)\b|[{,]\s*llm\s*[,}:=]|\.\s*llm\b/;

/**
 * The summary, with `usesModel` set when the definition's steps may call a model: it names a model
 * (`models`), or its text (without its inline case list, whose inputs may well mention "llm") uses
 * the `llm` capability. The steps run only later, case by case, so this is read from the text: a
 * definition that hides the call (`tools["l" + "lm"]`) is found out when its first case asks.
 */
export function withModelUse(summary: DefinitionSummary, analysisSource: string): DefinitionSummary {
  const usesModel = summary.models !== undefined || LLM_USE.test(analysisSource);
  return usesModel ? { ...summary, usesModel } : summary;
}
