/**
 * The single-step contrast (`--replay --contrast N`) as the command prints it, and as a saved
 * session keeps it: the tables under the Shapley ones, and each run's `commitment` and `contrast`
 * in its case's `replay` block. A session file opened again prints the same as the run that saved it.
 */
import type { RunContrast, SessionContrast } from '../session/types.ts';
import { MIN_COMMITMENT_REPLAYS } from '../replay/index.ts';

/** The shape of the replay command's extras (replay-command.ts, ReplayExtras), which main.ts prints. */
interface StoredExtras {
  blocks: Map<string, Record<string, unknown>>;
  caseFields: Map<string, Record<string, unknown>>;
  text: string[];
  json: Record<string, unknown>;
}

/** One run's contrast table and point of commitment, N replays per arm. */
export function contrastText(id: string, report: Omit<RunContrast, 'run'>, n: number): string {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`.padStart(4);
  const lines = [`Single-step contrast of "${id}" (${n} replays per arm; failure rate with the turn regenerated vs kept, 95% Wilson; difference 95% Newcombe)`];
  lines.push('  turn  step  agent                     regenerated            kept                   difference');
  for (const row of report.contrast) {
    lines.push(`  ${String(row.index).padStart(4)}  ${String(row.step).padStart(4)}  ${row.agent.slice(0, 24).padEnd(24)}  ${pct(row.regenerated.rate)} [${pct(row.regenerated.ci[0])}, ${pct(row.regenerated.ci[1])}]  ${pct(row.kept.rate)} [${pct(row.kept.ci[0])}, ${pct(row.kept.ci[1])}]  ${(row.difference >= 0 ? '+' : '') + (100 * row.difference).toFixed(0)}% [${(100 * row.ci[0]).toFixed(0)}%, ${(100 * row.ci[1]).toFixed(0)}%]`);
  }
  const none = n < MIN_COMMITMENT_REPLAYS
    ? `  point of commitment: none (fewer than ${MIN_COMMITMENT_REPLAYS} replays per arm can never show one: even ${n} failures of ${n} leave the Wilson lower bound under 90%)`
    : '  point of commitment: none (no recorded prefix reproduces the failure in at least 90% of replays at this N)';
  lines.push(report.commitment ? `  point of commitment: turn ${report.commitment.index} (step ${report.commitment.step}, ${report.commitment.agent}): with it and every turn before it as recorded, the failure reproduces in at least 90% of replays` : none);
  if (report.errors) lines.push(`  ${report.errors} contrast replay${report.errors === 1 ? '' : 's'} ended in an error and are not counted`);
  return lines.join('\n');
}

/** The fields a run's contrast adds to its case's `replay` block. */
export function contrastFields(run: Omit<RunContrast, 'run'>): Record<string, unknown> {
  return { commitment: run.commitment, contrast: run.contrast, ...(run.errors > 0 && { contrastErrors: run.errors }) };
}

/**
 * A stored session's contrast as the command's replay extras: each run's block (`replay:
 * { commitment, contrast }`, the fields the replay that saved it printed) and its table.
 */
export function storedContrastExtras(contrast: SessionContrast, caseIds: ReadonlySet<string>): StoredExtras {
  const blocks = new Map<string, Record<string, unknown>>();
  const caseFields = new Map<string, Record<string, unknown>>();
  const text: string[] = [];
  for (const run of contrast.runs) {
    if (!caseIds.has(run.run)) continue;
    const block = contrastFields(run);
    blocks.set(run.run, block);
    caseFields.set(run.run, { replay: block });
    text.push(contrastText(run.run, run, contrast.replays));
  }
  return { blocks, caseFields, text, json: {} };
}
