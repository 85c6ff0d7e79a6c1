/**
 * The demo pipelines shipped in public/demos/. Each definition (docs/formats.md, "Pipeline definitions") has a trace file
 * (docs/formats.md, "Trace files") generated from it by build-traces.ts, with the definition's source embedded so the
 * trace alone is enough to analyse it.
 */
export interface DemoSpec {
  /** Base name: `<name>.pipeline.js` and `<name>.trace.json` in public/demos/. */
  name: string;
  /** One line for menus and the README. */
  summary: string;
  /**
   * Its steps call a model: the build answers them with the deterministic test model and writes
   * the responses beside the trace (`<name>.responses.jsonl`), so it analyses with no model.
   */
  modelSteps?: boolean;
}

export const DEMOS: readonly DemoSpec[] = [
  {
    name: 'refund-policy',
    summary: 'Refund-policy assistant: over-determined and conjunctive fixes (reviewer checks cited claims).',
  },
  {
    name: 'refund-policy-b',
    summary: 'Same assistant, but the reviewer checks every claim: the writer becomes a null player.',
  },
  {
    name: 'stochastic-rag',
    summary: 'Sampled RAG pipeline over 200 questions; fixes only shift the sampling scores.',
  },
  {
    name: 'eight-step-agent',
    summary: 'Eight-step finance agent over 400 questions; the router fix can itself mis-route.',
  },
  {
    name: 'support-triage',
    summary: 'Support triage whose steps call a model (llm.choose, llm.chat); shipped with the responses of a deterministic test model.',
    modelSteps: true,
  },
  {
    name: 'order-desk',
    summary: 'Order desk whose metric works with any instruction-following model (the order number quoted, the right team); shipped with the test model\'s responses.',
    modelSteps: true,
  },
];

export function definitionFileName(demo: DemoSpec): string {
  return `${demo.name}.pipeline.js`;
}

export function traceFileName(demo: DemoSpec): string {
  return `${demo.name}.trace.json`;
}

export function responsesFileName(demo: DemoSpec): string {
  return `${demo.name}.responses.jsonl`;
}
