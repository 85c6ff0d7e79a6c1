import type { StepKind } from '../../runs/index.ts';

/**
 * LangSmith's run types as step kinds, one vocabulary for its run lists (`run_type`) and its OTel
 * exporter (`langsmith.span.kind`): a prompt template, an output parser or an embedding is not a
 * model call, even where the exporter also writes `gen_ai.operation.name=chat` on it.
 */
export const LANGSMITH_RUN_KIND: Readonly<Record<string, StepKind>> = Object.freeze({
  llm: 'llm',
  chain: 'chain',
  tool: 'tool',
  retriever: 'retriever',
  prompt: 'other',
  parser: 'other',
  embedding: 'other',
});

/** The kind of a LangSmith run type, or undefined for a type LangSmith does not define. */
export function langsmithKind(runType: string): StepKind | undefined {
  const key = runType.toLowerCase();
  return Object.hasOwn(LANGSMITH_RUN_KIND, key) ? LANGSMITH_RUN_KIND[key] : undefined;
}
