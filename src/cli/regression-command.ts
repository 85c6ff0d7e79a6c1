/**
 * `--against EARLIER` (docs/ci.md): the regression game of the definition in FILE against its earlier
 * version, analysed by the command's pool like any definition, then read as a regression: which
 * failing cases are new, and which change caused them. Its reverse (the earlier version as run)
 * runs on the cases that pass now, to count the ones the change fixed.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { AnalysisSettings, CaseDef, CaseResult } from '../engine/types.ts';
import { regressionSummary, type RegressionSummary } from '../engine/regression/summary.ts';
import { FormatError } from '../formats/format-error.ts';
import { parseJson, stripByteOrderMark } from '../formats/parse-json.ts';
import { parseCaseList } from '../formats/trace.ts';
import { DefinitionError } from '../sandbox/definition-error.ts';
import { parseOpenedFile } from '../session/opened-input.ts';
import { buildRegressionGame, RegressionPlanError, storedRegressionGame, type RegressionGame } from '../regression/regression-game.ts';
import { compilePipeline } from '../sandbox/compile.ts';
import type { ModelCacheEntry } from '../session/types.ts';
import type { CliOptions } from './args.ts';

type Fail = (message: string) => Error;

/** What the analysis of the game carries beside its results. */
export interface RegressionExtras {
  game: Pick<RegressionGame, 'plan'>;
  summary: RegressionSummary;
  /** The later and earlier files, as given. */
  after: string;
  before: string;
}

/** The study the command analyses: a definition's source and, where the file has them, its cases. */
interface VersionInput {
  source: string;
  fileName: string;
  cases?: CaseDef[];
}

function readFile(path: string, what: string, fail: Fail): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw fail(`cannot read ${what} "${path}": ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (e as Error).message}`);
  }
}

/** A definition file, a trace with its pipeline (or --pipeline for the later one) or a session file with its definition. */
function readVersion(path: string, what: string, fail: Fail, pipelineOverride?: string): VersionInput {
  const text = readFile(path, what, fail);
  let input;
  try {
    input = parseOpenedFile(text, basename(path));
  } catch (e) {
    if (e instanceof FormatError) throw fail(`${what} "${path}": ${e.message}`);
    throw e;
  }
  const override = pipelineOverride === undefined ? undefined : { source: readFile(pipelineOverride, 'pipeline definition', fail), fileName: basename(pipelineOverride) };
  switch (input.kind) {
    case 'pipeline':
      return { source: input.source, fileName: basename(path) };
    case 'trace': {
      const source = override?.source ?? input.trace.pipeline?.source;
      if (source === undefined) throw fail(`${what} "${path}" carries no pipeline definition: the regression game compares two definitions`);
      return { source, fileName: override?.fileName ?? basename(path), cases: input.trace.cases };
    }
    case 'session': {
      const source = override?.source ?? input.session.pipeline?.source;
      if (source === undefined) throw fail(`${what} "${path}" is a session without a pipeline definition: the regression game compares two definitions`);
      return { source, fileName: override?.fileName ?? basename(path), cases: input.session.cases };
    }
    default:
      throw fail(`${what} "${path}" holds ${input.kind === 'game' ? 'game tables' : input.kind === 'runs' ? 'recorded runs' : 'attribution predictions'}: the regression game compares two pipeline definitions (a .js file, a trace or a session file with its definition)`);
  }
}

/** --cases FILE: a JSON array of cases, or an object with `cases` (a trace's list). Errors name the JSON path. */
export function readCasesFile(path: string, fail: Fail): CaseDef[] {
  const text = stripByteOrderMark(readFile(path, '--cases file', fail));
  try {
    const document = parseJson(text);
    const list = Array.isArray(document) ? document : document !== null && typeof document === 'object' && Object.hasOwn(document, 'cases') ? (document as { cases: unknown }).cases : document;
    return parseCaseList(list, Array.isArray(document) ? '' : 'cases');
  } catch (e) {
    if (e instanceof FormatError) throw fail(`--cases "${path}": ${e.message}`);
    throw e;
  }
}

/** Builds the game, analyses it and its reverse, and reads the regression off their results. */
export async function runRegression<A extends { results: CaseResult[]; cases: CaseDef[]; settings: AnalysisSettings; notes?: string[] }>(
  opts: CliOptions & { against: string },
  analyzeSource: (source: string, sourceName: string, cases: CaseDef[] | undefined, opts: CliOptions) => Promise<A>,
  fail: Fail,
): Promise<A & { regression?: RegressionExtras }> {
  const after = readVersion(opts.file, 'the later version', fail, opts.pipeline);
  const before = readVersion(opts.against, '--against', fail);
  const cases = opts.cases !== undefined ? readCasesFile(opts.cases, fail) : after.cases;
  let game: RegressionGame;
  try {
    game = buildRegressionGame({ source: after.source, fileName: after.fileName }, { source: before.source, fileName: before.fileName });
  } catch (e) {
    if (e instanceof DefinitionError) throw fail(`${e.message.startsWith(before.fileName) && before.fileName !== after.fileName ? '--against: ' : ''}pipeline definition: ${e.message}`);
    if (e instanceof RegressionPlanError) throw fail(`--against: ${e.message}`);
    throw e;
  }
  const name = `${after.fileName} against ${before.fileName}`;
  const analysis = await analyzeSource(game.source, name, cases, opts);
  const notes = [...game.plan.notes];
  // A shard's verdict would be a part's: the merged study is judged (docs/ci.md).
  if (opts.shard) return { ...analysis, notes: [...(analysis.notes ?? []), ...notes] };
  const fixedIds = await fixedByTheChange(analysis.results, analysis.cases, game.reverseSource, name, opts, analyzeSource, notes);
  const summary = regressionSummary(analysis.results, fixedIds, game.plan.steps.map((s) => ({ name: s.name, change: s.change })), {
    delta: opts.settings.delta,
    bound: opts.batchBound,
    range: game.range,
    threshold: game.threshold,
  });
  return { ...analysis, notes: [...(analysis.notes ?? []), ...notes], regression: { game, summary, after: opts.file, before: opts.against } };
}

/** The cases passing now that fail in the earlier version: the reverse game's failures. */
async function fixedByTheChange<A extends { results: CaseResult[] }>(
  results: readonly CaseResult[],
  cases: readonly CaseDef[],
  reverseSource: string,
  name: string,
  opts: CliOptions,
  analyzeSource: (source: string, sourceName: string, cases: CaseDef[] | undefined, opts: CliOptions, carried?: readonly ModelCacheEntry[]) => Promise<A>,
  notes: string[],
  carried?: readonly ModelCacheEntry[],
): Promise<Set<string>> {
  const passing = new Set(results.filter((r) => r.error === undefined && !r.failed).map((r) => r.id));
  const fixedIds = new Set<string>();
  if (passing.size === 0) return fixedIds;
  const reverse = await analyzeSource(reverseSource, `${name} (reversed)`, cases.filter((c) => passing.has(c.id)), { ...opts, shard: undefined, save: undefined, html: undefined }, carried);
  for (const r of reverse.results) {
    if (r.error !== undefined) notes.push(`case "${r.id}" could not be run in the earlier version (counted as passing there): ${r.error}`);
    else if (r.failed) fixedIds.add(r.id);
  }
  return fixedIds;
}

/**
 * A regression game read back from its session file (the shards of a game, merged): its plan from
 * the game's source, the reverse game run on the cases that pass, then the same summary. Null when
 * the session's definition is not a regression game.
 */
export async function storedRegression<A extends { results: CaseResult[] }>(
  stored: { source: string; cases: readonly CaseDef[]; results: readonly CaseResult[]; modelCache?: readonly ModelCacheEntry[] },
  opts: CliOptions,
  analyzeSource: (source: string, sourceName: string, cases: CaseDef[] | undefined, opts: CliOptions, carried?: readonly ModelCacheEntry[]) => Promise<A>,
  fail: Fail,
): Promise<{ extras: RegressionExtras; notes: string[] } | null> {
  const game = storedRegressionGame(stored.source);
  if (game === null) return null;
  let threshold: number;
  let range: [number, number];
  try {
    const compiled = compilePipeline(stored.source, `${basename(opts.file)} (stored regression game)`);
    threshold = compiled.threshold ?? 1;
    range = [compiled.range?.[0] ?? 0, compiled.range?.[1] ?? 1];
  } catch (e) {
    if (e instanceof DefinitionError) throw fail(`"${opts.file}": its regression game does not compile: ${e.message}`);
    throw e;
  }
  const notes: string[] = [];
  const fixedIds = await fixedByTheChange(stored.results, stored.cases, game.reverseSource, basename(opts.file), opts, analyzeSource, notes, stored.modelCache);
  const summary = regressionSummary(stored.results, fixedIds, game.steps, { delta: opts.settings.delta, bound: opts.batchBound, range, threshold });
  return { extras: { game: { plan: { steps: game.steps.map((s) => ({ ...s, inputs: [], afterInputs: null, beforeInputs: null })), notes: [] } }, summary, after: opts.file, before: 'its earlier version (stored in the game)' }, notes };
}
