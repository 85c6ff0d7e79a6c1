/** The readable `--inspect` output: per run a header, its baselines, and an indented step tree. */
import { runUsage } from './build-run.ts';
import { heuristicPrediction, HEURISTICS } from './heuristics.ts';
import type { RecordedRun, RecordedStep } from './types.ts';

/** How text taken from a file is made safe to print (the command escapes control characters). */
export type Escape = (text: string) => string;

const asIs: Escape = (text) => text;

/** Deeper steps are not indented further: a 25 000-deep chain would print gigabytes of spaces. */
export const MAX_INDENT = 40;

function duration(step: RecordedStep): string {
  if (step.start === null || step.end === null) return '';
  const ms = step.end - step.start;
  if (!Number.isFinite(ms)) return '';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
}

function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function indent(depth: number): string {
  return depth <= MAX_INDENT ? '  '.repeat(depth) : `${'  '.repeat(MAX_INDENT)}[depth ${depth}] `;
}

export function stepLine(step: RecordedStep, index: number, escape: Escape = asIs): string {
  const parts = [`${indent(step.depth)}${index}. ${escape(oneLine(step.name, 60))} [${step.kind}]`];
  if (step.model) parts.push(escape(oneLine(step.model, 60)));
  if (step.usage) parts.push(`${step.usage.input}+${step.usage.output} tok`);
  const d = duration(step);
  if (d) parts.push(d);
  if (step.detached) parts.push(step.detached.reason === 'missing' ? `(parent ${escape(oneLine(step.detached.parent, 40))} not in file)` : `(cycle through ${escape(oneLine(step.detached.parent, 40))} broken)`);
  if (step.error) parts.push(`ERROR: ${escape(oneLine(step.error))}`);
  return parts.join('  ');
}

export function runText(run: RecordedRun, escape: Escape = asIs): string {
  const usage = runUsage(run);
  const head = [`run ${escape(oneLine(run.id, 80))}  "${escape(oneLine(run.name, 60))}"  ${run.status}  ${run.steps.length} steps  ${usage.input}+${usage.output} tokens`];
  if (run.group) head.push(`  group: ${escape(oneLine(run.group))}`);
  if (run.label) head.push(`  label: ${escape(oneLine(run.label.agent))} at step ${run.label.step}`);
  const picks = HEURISTICS.map((h) => {
    const p = heuristicPrediction(run, h.name);
    return `${h.label}: ${p === null ? 'none' : `${p.step} (${escape(oneLine(p.agent, 60))})`}`;
  });
  head.push(`  baselines: ${picks.join('; ')}`);
  return [...head, ...run.steps.map((s, i) => `  ${stepLine(s, i, escape)}`)].join('\n');
}
