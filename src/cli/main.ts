/**
 * The headless command (DESIGN 4.4): analyse a trace, a pipeline definition or a game file and
 * print per-case and batch blame, as tables or as one JSON object on stdout.
 * Exit status: 0 done; 1 some case could not be analysed (its `error` says why); 2 bad input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { availableParallelism } from 'node:os';
import type { BatchResult, CaseDef, CaseResult } from '../engine/types.ts';
import { aggregateBatch, BatchStopper } from '../engine/batch.ts';
import { analyzeTableGame, type TableGame } from '../engine/table-game.ts';
import { fixesUsed, type FixUsed } from '../engine/fix-choice.ts';
import { toSessionGames } from '../session/games.ts';
import { parseInputFile } from '../formats/detect.ts';
import { FormatError } from '../formats/format-error.ts';
import { parseArgs, UsageError, USAGE, type CliOptions } from './args.ts';
import { formatBatch, formatCase } from './tables.ts';
import { jsonReport } from './json-output.ts';

/** Bad input: one line on stderr, exit status 2. */
class InputError extends Error {}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read ${what} "${path}": ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (e as Error).message}`);
  }
}

interface Analysis {
  results: CaseResult[];
  batch: BatchResult;
  pipeline?: { name: string; source: string };
  cases: CaseDef[];
  /** The fix each step used, for the report's "fixes considered". */
  fixes?: FixUsed[];
  /** Game tables analysed (game files), so the report's embedded session can be reopened. */
  games?: TableGame[];
}

/** Options that only make sense when steps are replayed, refused for game files. */
const REPLAY_ONLY_OPTIONS = ['--pipeline', '--mode', '--worlds', '--fix', '--timeout', '--workers'];

/** Every --fix names a step of the definition and one of its fixes (bad input, exit 2, otherwise). */
function checkFixChoice(choice: Readonly<Record<string, string>> | undefined, steps: readonly { name: string; fixes: readonly { name: string }[] }[]): void {
  for (const [step, fix] of Object.entries(choice ?? {})) {
    const s = steps.find((x) => x.name === step);
    if (!s) throw new InputError(`--fix ${step}=${fix}: the definition has no step "${step}" (steps: ${steps.map((x) => x.name).join(', ')})`);
    if (!s.fixes.some((f) => f.name === fix)) throw new InputError(`--fix ${step}=${fix}: step "${step}" has no fix "${fix}" (fixes: ${s.fixes.map((f) => f.name).join(', ')})`);
  }
}

async function analyzeSource(source: string, sourceName: string, cases: CaseDef[] | undefined, opts: CliOptions): Promise<Analysis> {
  const { AnalysisPool } = await import('../node/analysis-pool.ts');
  // One worker per core, but no more than there are cases (a definition's own cases are counted only after describe).
  const size = opts.workers ?? Math.max(1, Math.min(availableParallelism(), cases?.length ?? availableParallelism()));
  const pool = new AnalysisPool({ size, timeoutMs: opts.timeoutMs, fileName: sourceName });
  try {
    let description;
    try {
      description = await pool.describe(source);
    } catch (e) {
      throw new InputError(`pipeline definition: ${(e as Error).message}`);
    }
    checkFixChoice(opts.settings.fixChoice, description.steps);
    const all = cases ?? description.cases;
    if (!all || all.length === 0) throw new InputError('no cases to analyse: the trace has none and the definition lists no "cases"');
    const range = description.range;
    const batchOpts = { delta: opts.settings.delta, bound: opts.batchBound, range };
    let results: CaseResult[];
    let stoppedEarly = false;
    if (opts.batchStop) {
      // Analyse in chunks and feed results in case order, so where we stop does not depend on timing.
      const stopper = new BatchStopper(batchOpts);
      results = [];
      const chunk = Math.max(8, size * 4);
      outer: for (let start = 0; start < all.length; start += chunk) {
        const part = await pool.run(source, all.slice(start, start + chunk), opts.settings);
        for (const r of part) {
          results.push(r);
          if (stopper.push(r)) {
            stoppedEarly = true;
            break outer;
          }
        }
      }
    } else {
      results = await pool.run(source, all, opts.settings);
    }
    // After a data-dependent stop only the checkpoint intervals keep their guarantee, so a
    // Bernstein batch interval is reported at the anytime confidence the stop was decided with.
    const reportOpts = stoppedEarly && batchOpts.bound === 'bernstein' ? { ...batchOpts, bound: 'anytime' as const } : batchOpts;
    const batch = aggregateBatch(results, reportOpts);
    if (stoppedEarly) batch.stoppedEarly = true;
    const fixes = fixesUsed(description.steps.map((s) => ({ name: s.name, fixes: s.fixes.map((f) => f.name) })), opts.settings.fixChoice);
    return { results, batch, pipeline: { name: description.name, source }, cases: all, fixes };
  } finally {
    await pool.close();
  }
}

async function analyze(opts: CliOptions): Promise<Analysis> {
  const text = readText(opts.file, 'input file');
  const input = parseInputFile(text, basename(opts.file));
  const pipelineText = opts.pipeline !== undefined ? readText(opts.pipeline, 'pipeline definition') : undefined;
  switch (input.kind) {
    case 'trace': {
      const source = pipelineText ?? input.trace.pipeline?.source;
      if (source === undefined) throw new InputError(`"${opts.file}" carries no pipeline definition: pass one with --pipeline FILE.js`);
      const sourceName = opts.pipeline !== undefined ? basename(opts.pipeline) : `${basename(opts.file)} (embedded pipeline)`;
      return analyzeSource(source, sourceName, input.trace.cases, opts);
    }
    case 'pipeline':
      return analyzeSource(input.source, basename(opts.file), undefined, opts);
    case 'runs':
    case 'predictions':
      throw new InputError(`"${opts.file}" holds ${input.kind === 'runs' ? `recorded runs (${input.runs.format})` : 'attribution predictions'}: open it with --inspect (and score with --score FILE)`);
    case 'game': {
      const misplaced = REPLAY_ONLY_OPTIONS.find((o) => opts.given.has(o));
      if (misplaced) throw new InputError(`${misplaced} does not apply to a game file (its values are already computed)`);
      const games = input.game.games;
      const results = games.map((g) => analyzeTableGame(g, opts.settings));
      const range = games[0]?.range;
      return { results, batch: aggregateBatch(results, { delta: opts.settings.delta, bound: opts.batchBound, range }), cases: [], games };
    }
  }
}

async function writeHtml(path: string, opts: CliOptions, a: Analysis): Promise<void> {
  const { renderReport } = await import('../report/index.ts');
  const now = new Date().toISOString();
  const html = renderReport({
    format: 'agentblame-session',
    version: 1,
    id: `cli-${Date.now().toString(36)}`,
    name: a.pipeline?.name ?? basename(opts.file),
    createdAt: now,
    updatedAt: now,
    fileName: basename(opts.file),
    pipeline: a.pipeline,
    cases: a.cases,
    settings: opts.settings,
    ...(a.games ? { games: toSessionGames(a.games) } : {}),
    results: a.results,
    batch: a.batch,
    status: 'done',
    revision: 0,
  }, { fixes: a.fixes });
  try {
    writeFileSync(path, html);
  } catch (e) {
    throw new InputError(`cannot write the report to "${path}": ${(e as Error).message}`);
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  // Recorded runs (DESIGN 5.2) have their own small command line.
  const { wantsInspect, inspectMain } = await import('./inspect.ts');
  if (wantsInspect(argv)) return inspectMain(argv);
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`blame: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  let a: Analysis;
  try {
    a = await analyze(opts);
    if (opts.html !== undefined) await writeHtml(opts.html, opts, a);
  } catch (e) {
    if (e instanceof InputError || e instanceof FormatError) {
      process.stderr.write(`blame: ${e.message.replace(/\s*\n\s*/g, ' ')}\n`);
      return 2;
    }
    throw e;
  }
  if (opts.json) {
    process.stdout.write(jsonReport(a.results, a.batch) + '\n');
  } else {
    const out = a.results.filter((r) => r.failed || r.error).map(formatCase);
    const passed = a.results.length - a.results.filter((r) => r.failed || r.error).length;
    if (passed) out.push(`${passed} passing case${passed === 1 ? '' : 's'} not shown`);
    out.push(formatBatch(a.batch, a.results.length));
    process.stdout.write(out.join('\n\n') + '\n');
  }
  return a.results.some((r) => r.error) ? 1 : 0;
}
