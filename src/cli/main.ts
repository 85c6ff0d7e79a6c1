/**
 * The headless command (docs/formats.md, "Command output"): analyse a trace, a pipeline definition or a game file and
 * print per-case and batch blame, as tables or as one JSON object on stdout.
 * Exit status: 0 done; 1 some case could not be analysed (its `error` says why); 2 bad input.
 */
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { writeWhole } from './write-whole.ts';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import type { Session, StudyMark, StudyMeta } from '../session/types.ts';
import { studyMetaOf } from '../session/study-meta.ts';
import { rerunFlag, rerunSettings } from './session-input.ts';
import { FormatError } from '../formats/format-error.ts';
import type { ModelCacheEntry } from '../session/types.ts';
import type { LocalModel } from '../model/index.ts';
import { useNodeSha256 } from '../pool/node/native-sha256.ts';
import { printable, printableLines, safeJsonText } from './printable.ts';
import { terminalModelProgress } from './model-progress-line.ts';
import { resultKeeper } from './printed-result.ts';
import { noChangeToJudge, parseArgs, UsageError, verdictFlagGiven, type CliOptions } from './args.ts';
import { readCommandLine, type CommandLine } from './command-line.ts';
import { helpText, usageOf } from './help.ts';
import { projectRootFrom } from '../pool/node/bundle-cache.mjs';
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
  /** --replay: when the runs were recorded (their earliest step start), for the session's metadata. */
  recordedAt?: string;
  /** --replay --contrast: the single-step contrast, kept in a saved session and the report. */
  contrast?: import('../session/types.ts').SessionContrast;
  /** --against: the regression game's plan and what its results say (docs/ci.md). */
  regression?: import('./regression-command.ts').RegressionExtras;
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
  let local: (LocalModel & { id: string; close(): Promise<void> }) | undefined;
  if (opts.model.modelFile !== undefined) {
    const { nodeLlamaModel } = await import('../model/index.node.ts');
    try {
      local = await nodeLlamaModel(opts.model.modelFile, process.env, join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
    } catch (e) {
      throw new InputError(e instanceof Error ? e.message : String(e));
    }
    // The file's id (gguf-sha256:<hex>) is the default model: the cache keys name the file's bytes, as in the page.
    opts.settings = { ...opts.settings, models: { ...opts.settings.models, default: local.id } };
  }
  try {
    made = commandModelHost(opts.model, opts.settings.models, process.env, liveLine ? (p) => liveLine.update(p) : undefined, carried, (warning) => process.stderr.write(`blame: ${printable(warning)}\n`), local);
  } catch (e) {
    if (e instanceof Error && (e.name === 'EndpointConfigError' || e.name === 'CacheFileError')) throw new InputError(e.message);
    throw e;
  }
  for (const warning of made?.warnings ?? []) process.stderr.write(`blame: ${printable(warning)}\n`);
  return { host: made?.host, close: async () => local?.close() };
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
  const { host: model, close: closeModel } = await commandModelHostOrInputError(opts, liveLine, carried);
  const pool = new NodeAnalysisPool({ size, timeoutMs: opts.timeoutMs, fileName: sourceName, model, maxModelRounds: opts.maxModelRounds });
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
      batchStopRule: opts.batchStopRule,
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
    await closeModel();
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
      batchStopRule: opts.batchStopRule,
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
    if (opts.against !== undefined) throw new InputError('--replay and --against are separate commands: give one of them');
    const { runReplay } = await import('./replay-command.ts');
    return runReplay(opts, opts.replay, analyzeSource, (message) => new InputError(message));
  }
  if (opts.against !== undefined) {
    const { runRegression } = await import('./regression-command.ts');
    return runRegression({ ...opts, against: opts.against }, analyzeSource, (message) => new InputError(message));
  }
  const givenCases = opts.cases === undefined ? undefined : (await import('./regression-command.ts')).readCasesFile(opts.cases, (message) => new InputError(message));
  const texts = opts.files.map((file) => readText(file, 'input file'));
  if (texts.length > 1) return analyzeSessions(opts, readSessionsToMerge(opts, texts));
  const input = readInput(opts.file, texts[0]);
  // Only a session file can hold a regression game to judge (read once it is open).
  const verdictFlag = verdictFlagGiven(opts.given);
  if (verdictFlag && opts.compare === undefined && input.kind !== 'session') throw new InputError(noChangeToJudge(verdictFlag));
  const pipelineText = opts.pipeline !== undefined ? readText(opts.pipeline, 'pipeline definition') : undefined;
  switch (input.kind) {
    case 'trace': {
      const source = pipelineText ?? input.trace.pipeline?.source;
      if (source === undefined) throw new InputError(`"${opts.file}" carries no pipeline definition: pass one with --pipeline FILE.js`);
      const sourceName = opts.pipeline !== undefined ? basename(opts.pipeline) : `${basename(opts.file)} (embedded pipeline)`;
      return analyzeSource(source, sourceName, givenCases ?? input.trace.cases, opts);
    }
    case 'pipeline':
      return analyzeSource(input.source, basename(opts.file), givenCases, opts);
    case 'runs':
    case 'predictions':
      throw new InputError(`"${opts.file}" holds ${input.kind === 'runs' ? `recorded runs (${input.runs.format})` : 'attribution predictions'}: ${input.kind === 'runs' ? 'blame them with --replay (docs/replay.md), or ' : ''}open it with --inspect (and score with --score FILE)`);
    case 'game':
      if (givenCases) throw new InputError('--cases gives the cases of a pipeline definition: a game file holds its values already');
      return analyzeGames(input.game.games, opts);
    case 'session':
      if (givenCases) throw new InputError('--cases gives the cases of a pipeline definition: a session file keeps its own (re-run it with other settings, or give its definition and --cases)');
      return analyzeSessions(opts, [{ file: opts.file, session: input.session }]);
  }
}

/** The session of an analysis: a stored one keeps its identity; a new one is named after its pipeline or file. */
function sessionOfAnalysis(opts: CliOptions, a: Analysis): Session {
  if (a.stored) {
    // A stored study keeps its metadata; the flags given change what they name.
    const given = opts.meta.recordedAt !== undefined || opts.meta.pipelineVersion !== undefined || opts.meta.tags.length > 0;
    return given ? { ...a.stored, meta: studyMetaWithFlags(studyMetaOf(a.stored), opts.meta) } : a.stored;
  }
  const now = new Date().toISOString();
  const study: StudyMark = {
    fingerprint: studyFingerprint({ pipeline: a.pipeline, cases: a.cases, ...(a.games && { games: toSessionGames(a.games) }), settings: a.settings }),
    ...(opts.shard && { shard: opts.shard }),
    batchBound: opts.batchBound,
    ...(a.range && { range: [a.range[0], a.range[1]] as [number, number] }),
    ...(opts.batchStop && { batchStop: true }),
    ...(opts.batchStop && opts.batchStopRule !== 'top' && { batchStopRule: opts.batchStopRule }),
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
    meta: studyMetaWithFlags(newStudyMeta(opts, a, now), opts.meta),
  });
}

/**
 * When a new study's cases were recorded: --recorded-at when given, else the recorded runs' own
 * earliest time (--replay), else the input file's date, else now (docs/trends.md).
 */
function newStudyMeta(opts: CliOptions, a: Analysis, now: string): StudyMeta {
  if (a.recordedAt !== undefined) return { version: 1, recordedAt: a.recordedAt, recordedFrom: 'runs', tags: [] };
  try {
    return { version: 1, recordedAt: statSync(opts.file).mtime.toISOString(), recordedFrom: 'file', tags: [] };
  } catch {
    return { version: 1, recordedAt: now, recordedFrom: 'created', tags: [] };
  }
}

function studyMetaWithFlags(meta: StudyMeta, flags: CliOptions['meta']): StudyMeta {
  return {
    ...meta,
    ...(flags.recordedAt !== undefined && { recordedAt: flags.recordedAt, recordedFrom: 'given' as const }),
    ...(flags.pipelineVersion !== undefined && { pipelineVersion: flags.pipelineVersion }),
    ...(flags.tags.length > 0 && { tags: [...flags.tags] }),
  };
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

/** --compare FILE: the analysis beside an earlier session file's (or report's) results, and those results. */
function compareWithFile(file: string, a: Analysis): NamedComparison & { earlier: CaseResult[] } {
  const text = readText(file, 'session to compare with');
  if (!sessionImporter.sniff(text)) throw new InputError(`--compare "${file}": expected a session file or an exported report (what --save or the workbench writes)`);
  const earlier = readSession(file, text);
  return { ...compareWithSession(earlier, { results: a.results, batch: a.batch, delta: a.settings.delta }), earlier: earlier.results };
}

/**
 * The regression verdict (docs/ci.md) when --against or --compare judged a change, or when session
 * files of a regression game (its shards, merged) are given with a verdict flag; null otherwise.
 */
async function judgeChange(opts: CliOptions, a: Analysis, compared: (NamedComparison & { earlier: CaseResult[] }) | undefined) {
  const { againstVerdict, compareVerdict } = await import('./gate-output.ts');
  if (a.regression) return againstVerdict(a.regression, opts.gateThreshold);
  if (compared) return compareVerdict(compared.earlier, a.results, compared.against, compared.comparison, opts.gateThreshold);
  const verdictFlag = verdictFlagGiven(opts.given);
  if (!verdictFlag) return null;
  const fail = (message: string) => new InputError(message);
  const { storedRegression } = await import('./regression-command.ts');
  const stored = a.stored && a.pipeline ? await storedRegression({ source: a.pipeline.source, cases: a.cases, results: a.results, modelCache: a.stored.modelCache }, opts, analyzeSource, fail) : null;
  if (stored === null) throw new InputError(noChangeToJudge(verdictFlag));
  a.regression = stored.extras;
  a.notes = [...(a.notes ?? []), ...stored.notes];
  return againstVerdict(stored.extras, opts.gateThreshold);
}

/** --summary and --junit, and the summary appended to $GITHUB_STEP_SUMMARY when that is set. */
async function writeGateFiles(opts: CliOptions, gate: import('./gate-output.ts').JudgedGate): Promise<void> {
  const { markdownSummary, junitReport } = await import('./gate-output.ts');
  const markdown = markdownSummary(gate);
  if (opts.summary !== undefined) writeOutput(opts.summary, 'summary', markdown);
  if (opts.junit !== undefined) writeOutput(opts.junit, 'JUnit report', junitReport(gate));
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  if (opts.summary !== undefined && stepSummary) {
    try {
      appendFileSync(stepSummary, markdown);
    } catch (e) {
      throw new InputError(`cannot append the summary to $GITHUB_STEP_SUMMARY ("${stepSummary}"): ${(e as Error).message}`);
    }
  }
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

/** The version of the package (its package.json, found by name from here, also inside a bundle). */
function version(): string {
  return (JSON.parse(readFileSync(join(projectRootFrom(import.meta.url), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The command: reads the command line once against the flag table (command-line.ts), then runs the
 * one command it names. Returns the exit status.
 */
export async function main(argv: readonly string[]): Promise<number> {
  // The model host checks every request's key: with Node's SHA-256, not the engine's own.
  useNodeSha256();
  let line: CommandLine;
  try {
    line = readCommandLine(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`blame: ${printable(e.message)}\nusage: agentblame COMMAND ... (agentblame --help: every command and flag, with its default)\n`);
      return 2;
    }
    throw e;
  }
  if (line.kind === 'version') {
    process.stdout.write(`agentblame ${version()}\n`);
    return 0;
  }
  if (line.kind === 'help') {
    process.stdout.write(`${helpText(line.topic, version())}\n`);
    return 0;
  }
  // Recorded runs (docs/recorded-runs.md), why this decision and its checks (docs/why.md): commands of their own.
  if (line.command === 'inspect') {
    const { inspectMain } = await import('./inspect.ts');
    return inspectMain(line.argv);
  }
  // Trends over saved sessions (docs/trends.md).
  if (line.command === 'trend') {
    const { trendMain } = await import('./trend-command.ts');
    return trendMain(line.argv);
  }
  if (line.command === 'why' || line.command === 'check') {
    const { whyMain } = await import('./why-command.ts');
    return whyMain(line.argv);
  }
  let opts: CliOptions;
  const usage = usageOf(line.command);
  try {
    // A replay of recorded runs (docs/replay.md) takes its own flags out first.
    const replay = line.command === 'replay' ? (await import('./replay-args.ts')).takeReplayArgs(line.argv) : null;
    opts = parseArgs(replay ? replay.rest : line.argv);
    if (replay) opts.replay = replay.options;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`blame: ${printable(e.message)}\n${usage}\n`);
      return 2;
    }
    throw e;
  }
  let a: Analysis;
  let compared: (NamedComparison & { earlier: CaseResult[] }) | undefined;
  let repaired: RepairOutcome;
  let gate: import('./gate-output.ts').JudgedGate | null = null;
  try {
    a = await analyze(opts);
    repaired = await afterAnalysis(opts.repair, a, opts.model);
    // Repairs read off a stored session's tables belong in what is saved or reported from it.
    if (a.stored && opts.repair.repairs) a.stored = { ...a.stored, results: a.results };
    if (opts.compare !== undefined) compared = compareWithFile(opts.compare, a);
    gate = await judgeChange(opts, a, compared);
    if (gate) await writeGateFiles(opts, gate);
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
  const shipped = shippedResponses(opts.file, opts.model.caches, a.results);
  if (shipped) process.stderr.write(`blame: note: ${printable(shipped)} beside the input holds recorded model responses: add --cache ${printable(shipped)} --offline to analyse with them\n`);
  const overflow = batchOverflow(a.batch);
  if (overflow !== null) {
    process.stderr.write(`blame: the batch summary overflows (${printable(overflow)}): keep costs and metric values well within ±1e300\n`);
    return 2;
  }
  const { regressionJson, gateJson, terminalVerdict, formatRegression } = await import('./gate-output.ts');
  if (opts.json) {
    const comparedJson = compared && { against: compared.against, comparison: compared.comparison };
    process.stdout.write(safeJsonText(jsonReport(a.results, batchWithConsensus(a.batch, repaired), { ...(comparedJson && { compare: comparedJson }), ...repairJson(repaired), ...a.replay?.json, ...(a.regression && { regression: regressionJson(a.regression) }), ...(gate && { gate: gateJson(gate) }) }, a.replay?.caseFields)) + '\n');
  } else {
    // The verdict comes first, so a CI log shows it at the top.
    const out = gate && opts.gate ? [terminalVerdict(gate)] : [];
    out.push(...a.results.filter((r) => r.failed || r.error).map((r) => formatCase(r, a.settings.budget)));
    const passed = a.results.length - a.results.filter((r) => r.failed || r.error).length;
    if (passed) out.push(`${passed} passing case${passed === 1 ? '' : 's'} not shown`);
    out.push(formatBatch(a.batch, a.results.length, a.replay?.contrastUsage, a.settings.mode, a.results.filter((r) => r.error).length));
    if (compared) out.push(formatComparison(compared));
    if (a.regression) out.push(formatRegression(a.regression));
    if (gate && !opts.gate) out.push(terminalVerdict(gate));
    const repairText = formatRepairOutcome(repaired);
    if (repairText) out.push(repairText);
    if (a.replay) out.push(...a.replay.text);
    process.stdout.write(printableLines(out.join('\n\n')) + '\n');
  }
  if (opts.gate && gate?.verdict.regression) return 1;
  return a.results.some((r) => r.error) ? 1 : 0;
}

/**
 * A demo's (or any study's) recorded model responses kept beside its input as NAME.responses.jsonl
 * (public/demos/order-desk.responses.jsonl): when cases failed for want of a model and no --cache
 * was given, the file is named, since the error alone says only "--cache FILE".
 */
function shippedResponses(file: string, caches: readonly string[], results: readonly CaseResult[]): string | null {
  if (caches.length > 0 || !results.some((r) => r.error?.includes('no model is configured'))) return null;
  const stem = basename(file).replace(/(\.(trace|pipeline|session|agentblame-session))?\.(json|jsonl|js|mjs)$/, '');
  const beside = join(dirname(file), `${stem}.responses.jsonl`);
  try {
    return statSync(beside).isFile() ? beside : null;
  } catch {
    return null;
  }
}
