/**
 * `--inspect` and `--score`: open recorded runs (docs/recorded-runs.md) without analysing them.
 *   blame -- FILE|DIR... --inspect [--json]     the run model (JSON exactly as docs/recorded-runs.md) or a tree
 *   blame -- FILE|DIR... --score PRED.json [--json]
 *                                               a predictions file and the no-replay baselines,
 *                                               scored against the runs' labels (Who&When)
 * A folder is read recursively (its .json and .jsonl files; those that are not recorded runs are
 * skipped, listed after the output). Exit status 2 on bad input.
 */
import { readFileSync } from 'node:fs';
import { printable, printableLines, safeJsonText } from './printable.ts';
import { usageOf } from './help.ts';
import { readRunFiles, RunFileError, skippedText, type SkippedFile } from './run-files.ts';
import { FormatError } from '../formats/format-error.ts';
import { parsePredictions } from '../formats/importers/predictions.ts';
import { inspectFiles, runText, randomBaseline, scoreHeuristics, scorePredictions, type ScoreSummary, type RecordedRun } from '../runs/index.ts';

export const INSPECT_USAGE = usageOf('inspect');

export class InspectInputError extends Error {
  /** A command-line mistake (the usage is shown after it), rather than a bad input file. */
  constructor(message: string, readonly usage = false) {
    super(message);
  }
}

interface InspectOptions {
  paths: string[];
  json: boolean;
  score?: string;
}

/** Whether the command line asks for the recorded-run commands (so main hands over to us). */
export function wantsInspect(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--inspect' || a === '--score' || a.startsWith('--score='));
}

export function parseInspectArgs(argv: readonly string[]): InspectOptions {
  const opts: InspectOptions = { paths: [], json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--inspect') continue;
    if (arg === '--json') opts.json = true;
    else if (arg === '--score' || arg.startsWith('--score=')) {
      const value = arg.startsWith('--score=') ? arg.slice('--score='.length) : argv[++i];
      if (value === undefined || value === '') throw new InspectInputError('--score needs a predictions file', true);
      opts.score = value;
    } else if (arg.startsWith('-')) throw new InspectInputError(`${arg} does not apply to --inspect or --score`, true);
    else opts.paths.push(arg);
  }
  if (opts.paths.length === 0) throw new InspectInputError('no input file given', true);
  return opts;
}

function percent(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

function summaryLine(label: string, s: ScoreSummary): string {
  return `${label.padEnd(28)} runs ${String(s.runs).padStart(4)}  agent ${percent(s.agent.rate).padStart(7)} [${percent(s.agent.ci[0])}, ${percent(s.agent.ci[1])}]  step ${percent(s.step.rate).padStart(7)} [${percent(s.step.ci[0])}, ${percent(s.step.ci[1])}]${s.missing ? `  (${s.missing} without a pick)` : ''}`;
}

function scoreReport(runs: readonly RecordedRun[], predictions: ReturnType<typeof parsePredictions> | undefined, json: boolean, skipped: readonly SkippedFile[] = []): string {
  const labelled = runs.filter((r) => r.label !== undefined);
  if (labelled.length === 0) throw new InspectInputError('none of the runs carries a label to score against (Who&When logs do)');
  const groups = [...new Set(labelled.map((r) => r.group).filter((g): g is string => g !== undefined))].sort();
  const random: Record<string, ReturnType<typeof randomBaseline>> = { all: randomBaseline(labelled) };
  for (const g of groups) random[g] = randomBaseline(labelled.filter((r) => r.group === g));
  const heuristics = scoreHeuristics(labelled).map((h) => ({ name: h.name, all: h.score.all, groups: h.score.groups }));
  const scored = predictions && Object.keys(predictions).length > 0 ? scorePredictions(labelled, predictions) : undefined;
  const unknown = predictions ? Object.keys(predictions).filter((id) => !labelled.some((r) => r.id === id)) : [];
  if (json) {
    return JSON.stringify({ runs: labelled.length, ...(scored ? { predictions: { all: scored.all, groups: scored.groups, unknownRuns: unknown } } : {}), heuristics, random, ...(skipped.length ? { skipped } : {}) });
  }
  const lines: string[] = ['Scores against the labels (exact step index; agent names case-insensitive; 95% Wilson intervals)'];
  const block = (title: string, all: ScoreSummary, byGroup: Record<string, ScoreSummary>): void => {
    lines.push(summaryLine(title, all));
    for (const g of groups) if (byGroup[g]) lines.push(summaryLine(`  ${printable(g)}`, byGroup[g]));
  };
  if (scored) block('predictions', scored.all, scored.groups);
  for (const h of heuristics) block(h.name, h.all, h.groups);
  for (const [key, r] of Object.entries(random)) lines.push(`${(key === 'all' ? 'random (expected)' : `  ${printable(key)}`).padEnd(28)} runs ${String(r.runs).padStart(4)}  agent ${percent(r.agent).padStart(7)}  step ${percent(r.step).padStart(7)}`);
  if (unknown.length) lines.push(`${unknown.length} prediction(s) name runs not given: ${unknown.slice(0, 5).map(printable).join(', ')}${unknown.length > 5 ? ', ...' : ''}`);
  return lines.join('\n');
}

export async function inspectMain(argv: readonly string[]): Promise<number> {
  try {
    const opts = parseInspectArgs(argv);
    let read;
    try {
      read = readRunFiles(opts.paths);
    } catch (e) {
      if (e instanceof RunFileError) throw new InspectInputError(e.message);
      throw e;
    }
    const { files, skipped } = read;
    let out: string;
    if (opts.score !== undefined) {
      let text: string;
      try {
        text = readFileSync(opts.score, 'utf8');
      } catch {
        throw new InspectInputError(`cannot read the predictions file "${opts.score}"`);
      }
      let predictions;
      try {
        predictions = parsePredictions(text);
      } catch (e) {
        if (e instanceof FormatError) throw new InspectInputError(`${opts.score}: ${e.message}`);
        throw e;
      }
      out = scoreReport(files.flatMap((f) => f.runs), predictions, opts.json, skipped);
      if (!opts.json && skipped.length) out += `\n\n${skippedText(skipped, printable)}`;
    } else if (opts.json) {
      out = JSON.stringify({ ...inspectFiles(files), ...(skipped.length ? { skipped } : {}) });
    } else {
      const runs = files.flatMap((f) => f.runs);
      out = [...runs.map((run) => runText(run, printable)), ...(runs.some((r) => r.label) ? [scoreReport(runs, undefined, false)] : []), ...(skipped.length ? [skippedText(skipped, printable)] : [])].join('\n\n');
    }
    process.stdout.write((opts.json ? safeJsonText(out) : printableLines(out)) + '\n');
    return 0;
  } catch (e) {
    if (e instanceof InspectInputError) {
      process.stderr.write(`blame: ${printable(e.message.replace(/\s*\n\s*/g, ' '))}\n${e.usage ? `${INSPECT_USAGE}\n` : ''}`);
      return 2;
    }
    throw e;
  }
}
