import { DEFAULT_RANGE } from './blame-game.ts';
import type { CaseDef, PipelineDef } from './types.ts';

/**
 * What the page and the command know of a compiled definition, as plain data (it crosses from the
 * sandbox and the workers): steps with their fix names, the threshold and the metric's range with
 * their defaults filled in, so every consumer aggregates and judges cases the same way.
 */
export interface DefinitionSummary {
  name: string;
  steps: { name: string; inputs: string[]; cost: number; fixes: string[] }[];
  /** The definition's own cases (used when it is opened without a trace). */
  cases: CaseDef[];
  /** A case fails when its factual metric is below this (default 1). */
  threshold: number;
  /** Bounds of the metric (default [0, 1]); the batch intervals need them. */
  range: [number, number];
  /** Model ids by alias the definition names for its llm calls (model steps). */
  models?: Record<string, string>;
  /** Its steps may call a model (read from the definition's text where that is at hand: the page's workers). */
  usesModel?: boolean;
}

/** The summary of a definition; cases are copied so the summary shares nothing with the sandbox. */
export function summarizeDefinition(def: PipelineDef): DefinitionSummary {
  const range = def.range ?? DEFAULT_RANGE;
  return {
    name: def.name,
    steps: def.steps.map((step) => ({ name: step.name, inputs: [...step.inputs], cost: step.cost, fixes: step.fixes.map((fix) => fix.name) })),
    cases: structuredClone(def.cases ?? []) as CaseDef[],
    threshold: def.threshold ?? 1,
    range: [range[0], range[1]],
    ...(def.models !== undefined && { models: { ...def.models } }),
  };
}
