/**
 * The headless command (docs/formats.md, "Command output"): analyse a trace, a pipeline definition or a game file and
 * print per-case and batch blame, as tables or as one JSON object on stdout.
 * Exit status: 0 done; 1 some case could not be analysed (its `error` says why); 2 bad input.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { writeWhole } from './write-whole.ts';
import { basename } from 'node:path';
import { availableParallelism } from 'node:os';
import type { AnalysisSettings, BatchResult, CaseDef, CaseResult } from '../engine/types.ts';
import type { TableGame } from '../engine/table-game.ts';
import { runStudy, studyBatch } from '../pool/run-study.ts';
import { nodeStudyPool } from '../pool/node/study-pool.ts';
import { fixesUsed, type FixUsed } from '../engine/fix-choice.ts';
import { toSessionGames, toTableGames } from '../session/games.ts';
import { buildSession } from '../session/build-session.ts';
import { exportSessionFile } from '../session/session-file.ts';
import { parseOpenedFile, sessionImporter, type OpenedInput } from '../session/opened-input.ts';
import { mergeStudySessions, StudyMergeError } from '../session/merge-study.ts';
import { shardOf } from '../session/shard.ts';
import { studyFingerprint } from '../session/study-fingerprint.ts';
import { recomputedBatch } from '../session/stored-batch.ts';
import type { Session, StudyMark } from '../session/types.ts';
import { rerunFlag, rerunSettings } from './session-input.ts';
import { FormatError } from '../formats/format-error.ts';
import type { ModelCacheEntry } from '../session/types.ts';
import { printable } from './printable.ts';
import { terminalModelProgress } from './model-progress-line.ts';
import { resultKeeper } from './printed-result.ts';
import { parseArgs, UsageError, USAGE, type CliOptions } from './args.ts';
import { formatBatch, formatCase } from './tables.ts';
import { jsonReport } from './json-output.ts';
import { compareWithSession, formatComparison, type NamedComparison } from './compare.ts';
import { afterAnalysis, type RepairOutcome } from './repairs-command.ts';
import { needsOutputs } from './repair-args.ts';
import { batchWithConsensus, formatRepairOutcome, repairJson } from './repairs-output.ts';
import { storedContrastExtras } from './contrast-output.ts';

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
  settings: AnalysisSettings;
  /** The metric's range, for the batch intervals (the definition's; [0, 1] when it names none). */
  range?: readonly [number, number];
  /** The session this was read from (printed as stored or merged), whose identity a saved copy keeps. */
  stored?: Session;
  /** Lines for stderr that are not errors (what a partial merge lacks). */
  notes?: string[];
  /** The model responses the results used (model steps), for saved sessions and reports. */
  modelCache?: ModelCacheEntry[];
  /** Each step's input names (compiled definitions), for the training pairs' prompts. */
  steps?: { name: string; inputs: string[] }[];
  /** --replay: the per-case replay blocks and the lines printed after the tables. */
  replay?: import('./replay-command.ts').ReplayExtras;
  /** --replay --contrast: the single-step contrast, kept in a saved session and the report. */
  contrast?: import('../session/types.ts').SessionContrast;
}

/** Options that only make sense when steps are replayed, refused for game files. */
const REPLAY_ONLY_OPTIONS = ['--pipeline', '--mode', '--worlds', '--fix', '--timeout', '--workers'];

/** Every --fix names a step of the definition and one of its fixes (bad input, exit 2, otherwise). */
function checkFixChoice(choice: Readonly<Record<string, string>> | undefined, steps: readonly { name: string; fixes: readonly string[] }[]): void {
  for (const [step, fix] of Object.entries(choice ?? {})) {
    const s = steps.find((x) => x.name === step);
    if (!s) throw new InputError(`--fix ${step}=${fix}: the definition has no step "${step}" (steps: ${steps.map((x) => x.name).join(', ')})`);
    if (!s.fixes.includes(fix)) throw new InputError(`--fix ${step}=${fix}: step "${step}" has no fix "${fix}" (fixes: ${s.fixes.join(', ')})`);
  }
}

/** The model host of --model-url / --cache / --offline (none without them); bad settings are bad input. */
async function commandModelHostOrInputError(opts: CliOptions, liveLine?: { update(p: import('../model/index.ts').ModelProgress): void }, carried?: readonly ModelCacheEntry[]) {
  const { commandModelHost } = await import('../model/index.node.ts');
  let made;
  try {
    made = commandModelHost(opts.model, opts.settings.models, process.env, liveLine ? (p) => liveLine.update(p) : undefined, carried, (warning) => process.stderr.write(`blame: ${warning}\n`));
  } catch (e) {
    if (e instanceof Error && (e.name === 'EndpointConfigError' || e.name === 'CacheFileError')) throw new InputError(e.message);
    throw e;
  }
  for (const warning of made?.warnings ?? []) process.stderr.write(`blame: ${warning}\n`);
  return made?.host;
}

/**
 * Analyses a definition's cases. `carried` are the model responses of the session file being
 * re-run: they answer what the --cache files and the endpoint do not (never written to a cache).
 */
async function analyzeSource(source: string, sourceName: string, cases: CaseDef[] | undefined, opts: CliOptions, carried?: readonly ModelCacheEntry[]): Promise<Analysis> {
  const { NodeAnalysisPool } = await import('../pool/node/analysis-pool.ts');
  // One worker per core, but no more than there are cases (a definition's own cases are counted only after describe).
  const size = opts.workers ?? Math.max(1, Math.min(availableParallelism(), cases?.length ?? availableParallelism()));
  // Model requests can take minutes: on a terminal, one line on stderr says how they go.
  const liveLine = process.stderr.isTTY ? terminalModelProgress(process.stderr) : undefined;
  const model = await commandModelHostOrInputError(opts, liveLine, carried);
  const pool = new NodeAnalysisPool({ size, timeoutMs: opts.timeoutMs, fileName: sourceName, model });
  try {
    // A replay reads its outputs for the tool turns that reused a recorded result (--replay's toolsReused).
    const keepsOutputs = opts.save !== undefined || opts.html !== undefined || needsOutputs(opts.repair) || opts.replay !== undefined;
    let keep = (result: CaseResult) => result;
    const shard = opts.shard;
    const outcome = await runStudy({
      pool: nodeStudyPool(pool, (result) => keep(result)),
      study: { source, fileName: sourceName, ...(cases && { cases }) },
      settings: opts.settings,
      batchBound: opts.batchBound,
      batchStop: opts.batchStop,
      model,
      // A shard analyses its part; the session keeps every case, so shards merge into the whole study.
      ...(shard && { pick: <T>(items: readonly T[]) => shardOf(items, shard) }),
      onDescribed: (summary) => {
        checkFixChoice(opts.settings.fixChoice, summary.steps);
        const study = cases ?? summary.cases;
        keep = resultKeeper(keepsOutputs, (shard ? shardOf(study, shard) : study).length);
      },
    });
    if (outcome.status === 'bad-definition') throw new InputError(`pipeline definition: ${outcome.problem.message}`);
    const description = outcome.status === 'no-cases' ? null : outcome.summary;
    if (outcome.status === 'no-cases' || description === null) throw new InputError('no cases to analyse: the trace has none and the definition lists no "cases"');
    const results = outcome.results.filter((r): r is CaseResult => r !== undefined);
    const batch = outcome.batch;
    // Everything the host sent or found cached, also for cases that ended in an error.
    const usage = model?.totalUsage();
    if (usage && (usage.requests > 0 || usage.cacheHits > 0)) batch.usage = usage;
    const fixes = fixesUsed(description.steps, opts.settings.fixChoice);
    const range = description.range;
    // The responses the results used, so a saved session or report re-analyses with no model.
    const wanted = new Set(results.flatMap((r) => r.modelKeys ?? []));
    const modelCache = model ? [...model.cache.entries()].filter((e) => wanted.has(e.key)).sort((x, y) => (x.key < y.key ? -1 : 1)) : [];
    return { results, batch, pipeline: { name: description.name, source }, cases: [...outcome.cases], fixes, settings: opts.settings, ...(range && { range }), ...(modelCache.length > 0 && { modelCache }), steps: description.steps };
  } finally {
    liveLine?.end();
    await pool.close();
  }
}

/**
 * A stored session as an analysis: its batch aggregated again from its cases (a file's stored
 * figures are never printed as they are), with --batch-bound when given.
 */
function storedAnalysis(session: Session, opts: CliOptions, notes?: string[]): Analysis {
  const range = session.study?.range;
  const rebound = opts.given.has('--batch-bound');
  const batch = recomputedBatch(session, rebound ? opts.batchBound : undefined);
  return {
    results: session.results,
    batch,
    ...(session.pipeline && { pipeline: session.pipeline }),
    cases: session.cases,
    ...(session.games && { games: toTableGames(session.games) }),
    settings: session.settings,
    ...(range && { range }),
    stored: { ...session, batch, ...(rebound && session.study && { study: { ...session.study, batchBound: opts.batchBound } }) },
    ...(notes && { notes }),
    ...(session.contrast && { replay: storedContrastExtras(session.contrast, new Set(session.cases.map((c) => c.id))) }),
  };
}

/**
 * An input file read through the importer list the page uses (src/session/opened-input.ts). A
 * session file's or report's problem names the file; other formats' errors name their JSON path.
 */
function readInput(file: string, text: string): OpenedInput {
  try {
    return parseOpenedFile(text, basename(file));
  } catch (e) {
    if (e instanceof FormatError && sessionImporter.sniff(text)) throw new InputError(`"${file}": ${e.message}`);
    throw e;
  }
}

/** A file that sniffs as a session file or report, read as one. */
function readSession(file: string, text: string): Session {
  const input = readInput(file, text);
  if (input.kind !== 'session') throw new InputError(`"${file}" is not a session file`);
  return input.session;
}

/** Several input files: session files (or reports) to merge, each read through the importer list. */
function readSessionsToMerge(opts: CliOptions, texts: readonly string[]): { file: string; session: Session }[] {
  const notSession = opts.files.find((_, k) => !sessionImporter.sniff(texts[k]));
  if (notSession !== undefined) throw new InputError(`"${notSession}" is not a session file: several input files are merged, and only session files (or reports) merge`);
  return opts.files.map((file, k) => ({ file, session: readSession(file, texts[k]) }));
}

/** Session files given as input: one is printed (or re-run with other settings), several are merged. */
async function analyzeSessions(opts: CliOptions, sessions: readonly { file: string; session: Session }[]): Promise<Analysis> {
  const rerun = rerunFlag(opts);
  if (sessions.length > 1) {
    if (rerun) throw new InputError(`${rerun} re-runs a study: give it one session file, or merge first and re-run the merged file`);
    try {
      const merged = mergeStudySessions(sessions, { allowPartial: opts.allowPartial, ...(opts.given.has('--batch-bound') && { batchBound: opts.batchBound }) });
      return storedAnalysis(merged.session, { ...opts, given: new Set([...opts.given].filter((f) => f !== '--batch-bound')) }, merged.missing.length > 0 ? [`partial merge: ${merged.missingText}`] : undefined);
    } catch (e) {
      if (e instanceof StudyMergeError) throw new InputError(e.message);
      throw e;
    }
  }
  const { file, session } = sessions[0];
  if (!rerun) return storedAnalysis(session, opts);
  // Re-run the stored study: its inputs, its settings with the given ones in their place.
  const rerunOpts = { ...opts, settings: rerunSettings(session.settings, opts) };
  if (session.games && session.games.length > 0) return analyzeGames(toTableGames(session.games), rerunOpts);
  const source = opts.pipeline !== undefined ? readText(opts.pipeline, 'pipeline definition') : session.pipeline?.source;
  if (source === undefined) throw new InputError(`"${file}" carries no pipeline definition to re-run: pass one with --pipeline FILE.js`);
  // Its own model responses answer what the user's caches lack: a shared session re-analyses with no model.
  return analyzeSource(source, opts.pipeline !== undefined ? basename(opts.pipeline) : `${basename(file)} (stored pipeline)`, session.cases, rerunOpts, session.modelCache);
}

async function analyzeGames(games: TableGame[], opts: CliOptions): Promise<Analysis> {
  const misplaced = REPLAY_ONLY_OPTIONS.find((o) => opts.given.has(o));
  if (misplaced) throw new InputError(`${misplaced} does not apply to a game file (its values are already computed)`);
  const range = games[0]?.range;
  const shard = opts.shard;
  const part = shard ? shardOf(games, shard) : games;
  if (part.length === 0) {
    // A shard with no game of its own: nothing to start workers for.
    return { results: [], batch: studyBatch([], games[0] ?? {}, opts.settings.delta, opts.batchBound, false), cases: [], games, settings: opts.settings, ...(range && { range }) };
  }
  const { NodeAnalysisPool } = await import('../pool/node/analysis-pool.ts');
  // Game tables are analysed in workers, as the page does: one per core, no more than there are games.
  const pool = new NodeAnalysisPool({ size: Math.max(1, Math.min(availableParallelism(), part.length)), timeoutMs: opts.timeoutMs });
  try {
    const outcome = await runStudy({
      pool: nodeStudyPool(pool),
      study: { fileName: basename(opts.file), cases: [], games },
      settings: opts.settings,
      batchBound: opts.batchBound,
      batchStop: opts.batchStop,
      ...(shard && { pick: <T>(items: readonly T[]) => shardOf(items, shard) }),
    });
    if (outcome.status !== 'done') throw new Error(`internal: a study of games ended ${outcome.status}`);
    const results = outcome.results.filter((r): r is CaseResult => r !== undefined);
    return { results, batch: outcome.batch, cases: [], games, settings: opts.settings, ...(range && { range }) };
  } finally {
    await pool.close();
  }
}

async function analyze(opts: CliOptions): Promise<Analysis> {
  if (opts.replay) {
    const { runReplay } = await import('./replay-command.ts');
    return runReplay(opts, opts.replay, analyzeSource, (message) => new InputError(message));
  }
  const texts = opts.files.map((file) => readText(file, 'input file'));
  if (texts.length > 1) return analyzeSessions(opts, readSessionsToMerge(opts, texts));
  const input = readInput(opts.file, texts[0]);
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
      throw new InputError(`"${opts.file}" holds ${input.kind === 'runs' ? `recorded runs (${input.runs.format})` : 'attribution predictions'}: ${input.kind === 'runs' ? 'blame them with --replay (docs/replay.md), or ' : ''}open it with --inspect (and score with --score FILE)`);
    case 'game':
      return analyzeGames(input.game.games, opts);
    case 'session':
      return analyzeSessions(opts, [{ file: opts.file, session: input.session }]);
  }
}

/** The session of an analysis: a stored one keeps its identity; a new one is named after its pipeline or file. */
function sessionOfAnalysis(opts: CliOptions, a: Analysis): Session {
  if (a.stored) return a.stored;
  const now = new Date().toISOString();
  const study: StudyMark = {
    fingerprint: studyFingerprint({ pipeline: a.pipeline, cases: a.cases, ...(a.games && { games: toSessionGames(a.games) }), settings: a.settings }),
    ...(opts.shard && { shard: opts.shard }),
    batchBound: opts.batchBound,
    ...(a.range && { range: [a.range[0], a.range[1]] as [number, number] }),
    ...(opts.batchStop && { batchStop: true }),
  };
  return buildSession({
    id: `cli-${Date.now().toString(36)}`,
    name: a.pipeline?.name ?? basename(opts.file),
    createdAt: now,
    updatedAt: now,
    fileName: basename(opts.file),
    pipeline: a.pipeline,
    cases: a.cases,
    games: a.games,
    settings: a.settings,
    results: a.results,
    batch: a.batch,
    status: 'done',
    study,
    ...(a.modelCache && { modelCache: a.modelCache }),
    ...(a.contrast && { contrast: a.contrast }),
  });
}

/**
 * Writes a file whole or not at all (a temporary file renamed into place), so a shard killed while
 * saving leaves no half-written session for a merge to trip over.
 */
function writeOutput(path: string, what: string, text: string): void {
  writeWhole(path, text, what, (message) => new InputError(message));
}

async function writeHtml(path: string, session: Session, a: Analysis, compared?: NamedComparison, repaired?: RepairOutcome): Promise<void> {
  const { renderReport } = await import('../report/index.ts');
  writeOutput(path, 'report', renderReport(session, { fixes: a.fixes, ...(compared && { comparison: compared }), ...(repaired?.audit && { audit: repaired.audit }) }));
}

/** --compare FILE: the analysis beside an earlier session file's (or report's) results. */
function compareWithFile(file: string, a: Analysis): NamedComparison {
  const text = readText(file, 'session to compare with');
  if (!sessionImporter.sniff(text)) throw new InputError(`--compare "${file}": expected a session file or an exported report (what --save or the workbench writes)`);
  return compareWithSession(readSession(file, text), { results: a.results, batch: a.batch, delta: a.settings.delta });
}

/** The first number of the batch summary that is not finite (JSON would print it as null), or null. */
function batchOverflow(batch: BatchResult): string | null {
  if (!Number.isFinite(batch.cost)) return `cost is ${batch.cost}`;
  for (const s of batch.steps) {
    const fields: [string, number][] = [['fixAloneRate', s.fixAloneRate], ['meanShapley', s.meanShapley], ['share', s.share], ['ci low', s.ci[0]], ['ci high', s.ci[1]]];
    for (const [field, value] of fields) if (!Number.isFinite(value)) return `step "${s.step}": ${field} is ${value}`;
  }
  return null;
}

export async function main(argv: readonly string[]): Promise<number> {
  // A replay of recorded runs (docs/replay.md) takes its own flags out first.
  const { takeReplayArgs, REPLAY_USAGE } = await import('./replay-args.ts');
  let replay: ReturnType<typeof takeReplayArgs> = null;
  try {
    replay = takeReplayArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`blame: ${printable(e.message)}\n${REPLAY_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (replay) argv = replay.rest;
  // --inspect, --why and --check are commands of their own: beside --replay, one would be dropped in silence.
  const other = replay ? argv.find((a) => ['--inspect', '--why', '--check'].includes(a.split('=')[0])) : undefined;
  if (other) {
    process.stderr.write(`blame: --replay and ${other.split('=')[0]} are separate commands: give one of them\n`);
    return 2;
  }
  // Recorded runs (docs/recorded-runs.md) have their own small command line.
  const { wantsInspect, inspectMain } = await import('./inspect.ts');
  if (wantsInspect(argv)) return inspectMain(argv);
  // Why this decision, and its checks (docs/why.md), have their own command line too.
  const { wantsWhy, whyMain } = await import('./why-command.ts');
  if (wantsWhy(argv)) return whyMain(argv);
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
    if (replay) opts.replay = replay.options;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`blame: ${printable(e.message)}\n${USAGE}\n${REPLAY_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  let a: Analysis;
  let compared: NamedComparison | undefined;
  let repaired: RepairOutcome;
  try {
    a = await analyze(opts);
    repaired = await afterAnalysis(opts.repair, a, opts.model);
    // Repairs read off a stored session's tables belong in what is saved or reported from it.
    if (a.stored && opts.repair.repairs) a.stored = { ...a.stored, results: a.results };
    if (opts.compare !== undefined) compared = compareWithFile(opts.compare, a);
    // Session files printed or merged (nothing re-run): --cache files are merged into the first.
    // The sessions' own responses are not: they stay with their session (a file is not trusted).
    // --keep-responses adds them on purpose.
    const keep = opts.given.has('--keep-responses');
    if (keep && !(a.stored && opts.model.caches.length > 0)) throw new InputError('--keep-responses adds session files\' model responses to the first --cache FILE: give session files (printed or merged, not re-run) and --cache FILE');
    if (a.stored && opts.model.caches.length > 0) {
      const { mergeCacheFiles } = await import('./merge-caches.ts');
      let merged;
      try {
        merged = mergeCacheFiles(opts.model.caches, keep ? a.stored.modelCache : []);
      } catch (e) {
        throw new InputError((e as Error).message);
      }
      a.notes = [...(a.notes ?? []), ...merged.warnings, `${opts.model.caches[0]}: ${merged.added} response${merged.added === 1 ? '' : 's'} added from the other caches${keep ? ' and the session files' : ''}`];
    }
    if (opts.html !== undefined || opts.save !== undefined) {
      const session = sessionOfAnalysis(opts, a);
      if (opts.save !== undefined) writeOutput(opts.save, 'session file', exportSessionFile(session));
      if (opts.html !== undefined) await writeHtml(opts.html, session, a, compared, repaired);
    }
  } catch (e) {
    if (e instanceof InputError || e instanceof FormatError) {
      process.stderr.write(`blame: ${printable(e.message.replace(/\s*\n\s*/g, ' '))}\n`);
      return 2;
    }
    throw e;
  }
  for (const note of repaired.notes) process.stderr.write(`blame: note: ${printable(note)}\n`);
  for (const note of a.notes ?? []) process.stderr.write(`blame: note: ${printable(note)}\n`);
  const overflow = batchOverflow(a.batch);
  if (overflow !== null) {
    process.stderr.write(`blame: the batch summary overflows (${printable(overflow)}): keep costs and metric values well within ±1e300\n`);
    return 2;
  }
  if (opts.json) {
    process.stdout.write(jsonReport(a.results, batchWithConsensus(a.batch, repaired), { ...(compared && { compare: compared }), ...repairJson(repaired), ...a.replay?.json }, a.replay?.caseFields) + '\n');
  } else {
    const out = a.results.filter((r) => r.failed || r.error).map(formatCase);
    const passed = a.results.length - a.results.filter((r) => r.failed || r.error).length;
    if (passed) out.push(`${passed} passing case${passed === 1 ? '' : 's'} not shown`);
    out.push(formatBatch(a.batch, a.results.length));
    if (compared) out.push(formatComparison(compared));
    const repairText = formatRepairOutcome(repaired);
    if (repairText) out.push(repairText);
    if (a.replay) out.push(...a.replay.text);
    process.stdout.write(out.join('\n\n') + '\n');
  }
  return a.results.some((r) => r.error) ? 1 : 0;
}
