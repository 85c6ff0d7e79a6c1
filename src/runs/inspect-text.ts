/** The readable `--inspect` output: per run a header, its baselines, and an indented step tree. */
import { runUsage } from './build-run.ts';
import { heuristicPrediction, HEURISTICS } from './heuristics.ts';
import type { RecordedRun, RecordedStep } from './types.ts';

function duration(step: RecordedStep): string {
  if (step.start === null || step.end === null) return '';
  const ms = step.end - step.start;
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
}

function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function stepLine(step: RecordedStep, index: number): string {
  const parts = [`${'  '.repeat(step.depth)}${index}. ${oneLine(step.name, 60)} [${step.kind}]`];
  if (step.model) parts.push(step.model);
  if (step.usage) parts.push(`${step.usage.input}+${step.usage.output} tok`);
  const d = duration(step);
  if (d) parts.push(d);
  if (step.detached) parts.push(step.detached.reason === 'missing' ? `(parent ${step.detached.parent} not in file)` : `(cycle through ${step.detached.parent} broken)`);
  if (step.error) parts.push(`ERROR: ${oneLine(step.error)}`);
  return parts.join('  ');
}

export function runText(run: RecordedRun): string {
  const usage = runUsage(run);
  const head = [`run ${run.id}  "${oneLine(run.name, 60)}"  ${run.status}  ${run.steps.length} steps  ${usage.input}+${usage.output} tokens`];
  if (run.group) head.push(`  group: ${run.group}`);
  if (run.label) head.push(`  label: ${run.label.agent} at step ${run.label.step}`);
  const picks = HEURISTICS.map((h) => {
    const p = heuristicPrediction(run, h.name);
    return `${h.label}: ${p === null ? 'none' : `${p.step} (${p.agent})`}`;
  });
  head.push(`  baselines: ${picks.join('; ')}`);
  return [...head, ...run.steps.map((s, i) => `  ${stepLine(s, i)}`)].join('\n');
}
