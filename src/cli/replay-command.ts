/**
 * `--replay` (docs/replay.md): recorded runs become one replay definition (src/replay/), analysed
 * as any definition by the command's pool and model host; one case per run. Adds each case's
 * `replay` block to the JSON, a turn table to the text, the single-step contrast (`--contrast`)
 * and, for labelled runs, the replay's picks scored beside the heuristics (`--score`).
 */
import { recordedAtOfRuns } from '../session/study-meta.ts';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { AttributedCaseResult, CaseDef, CaseResult } from '../engine/types.ts';
import type { ChatRequest, ModelUsage } from '../engine/model-call.ts';
import { buildReplay, defaultExportCount, expectedOutcome, metricProbe, toolsProbe, turnRequests, turnLinks, contrastReport, replayRounds, contrastStudy, EmbeddedFileError, parseFixSpec, replayBlock, ReplayPlanError, type Outcome, type ReplayDefinition, type ReplayRunData } from '../replay/index.ts';
import { type RecordedRun, scoreHeuristics, scorePredictions, scoreRuns, type ScoreSummary } from '../runs/index.ts';
import { parsePredictions } from '../formats/importers/predictions.ts';
import { FormatError } from '../formats/format-error.ts';
import { compilePipeline } from '../sandbox/compile.ts';
import { DefinitionError } from '../sandbox/definition-error.ts';
import { writeWhole } from './write-whole.ts';
import type { CliOptions } from './args.ts';
import { readRunFiles, RunFileError } from './run-files.ts';
import type { ReplayCliOptions } from './replay-args.ts';
import type { SessionContrast } from '../session/types.ts';
import { contrastFields, contrastText } from './contrast-output.ts';

export interface ReplayExtras {
  /** Per case id: the `replay` block of its JSON. */
  blocks: Map<string, Record<string, unknown>>;
  /** Per case id: the fields added to its JSON (`replay`, and `usage` with `toolsReused`). */
  caseFields: Map<string, Record<string, unknown>>;
  /** Lines printed after the tables. */
  text: string[];
  /** Top-level JSON fields (`replayScore`, `contrastUsage`). */
  json: Record<string, unknown>;
  /** The contrast replays' model usage (--contrast), printed in the `model:` line beside the analysis's. */
  contrastUsage?: ModelUsage;
}

type Fail = (message: string) => Error;

function readUserFile(path: string, what: string, fail: Fail): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw fail(`cannot read the ${what} "${path}": ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** `/REGEX/flags` or plain text. */
function expectOutcome(value: string, fail: Fail): Outcome {
  const read = expectedOutcome(value);
  if (!read.ok) throw fail(`--expect ${value}: not a regular expression: ${read.problem}`);
  return read.outcome;
}

function outcomeOf(replay: ReplayCliOptions, runs: readonly RecordedRun[], fail: Fail): Outcome | null {
  if (replay.expect !== undefined) return expectOutcome(replay.expect, fail);
  if (replay.judge !== undefined) return { kind: 'judge', rubric: replay.judge };
  if (replay.metric !== undefined) {
    const source = readUserFile(replay.metric, '--metric file', fail);
    checkMetric(replay.metric, source, fail);
    return { kind: 'metric', source, fileName: basename(replay.metric) };
  }
  const without = runs.find((r) => r.expected === undefined);
  if (without) throw fail(`--replay needs a way to decide whether a replayed run succeeds: --expect TEXT|/REGEX/, --judge RUBRIC or --metric FILE.js (run "${without.id}" records no correct answer)`);
  return null;
}

/**
 * Refuses a `--metric` file whose default export is not a function, evaluated in the sandbox (the
 * file is untrusted code), so it is bad input and not an error in every case. A file without one
 * `export default` is left to the definition's own message.
 */
function checkMetric(path: string, source: string, fail: Fail): void {
  if (defaultExportCount(source) !== 1) return;
  const probe = metricProbe(source);
  let type: unknown;
  try {
    type = compilePipeline(probe, basename(path)).cases?.[0]?.inputs.type;
  } catch (e) {
    throw fail(`--metric "${basename(path)}": ${(e as Error).message}`);
  }
  if (type !== 'function') throw fail(`--metric "${basename(path)}": the default export must be a function (run) => number, got a${type === 'object' || type === 'undefined' ? 'n' : ''} ${type}`);
}

/** The tool names a `--tools` file stubs, read in the sandbox (the file is untrusted code). */
function toolNames(path: string, source: string, fail: Fail): Set<string> {
  const probe = toolsProbe(source);
  if (!probe.ok) throw fail(`--tools "${path}": ${probe.problem}`);
  try {
    const def = compilePipeline(probe.probe, basename(path));
    return new Set((def.cases?.[0]?.inputs.names as string[] | undefined) ?? []);
  } catch (e) {
    throw fail(`--tools "${path}": ${(e as Error).message}`);
  }
}

/** The runs of the input files (folders walked), `--run` picking some. */
function runsOf(opts: CliOptions, replay: ReplayCliOptions, fail: Fail): { runs: RecordedRun[]; origin: string } {
  let files;
  try {
    files = readRunFiles(opts.files).files;
  } catch (e) {
    if (e instanceof RunFileError) throw fail(`--replay: ${e.message}`);
    throw e;
  }
  const all = files.flatMap((f) => f.runs);
  const origin = opts.files.length === 1 ? basename(opts.files[0]) : `${opts.files.length} inputs`;
  if (replay.runs.length === 0) return { runs: all, origin };
  const picked = replay.runs.map((id) => {
    const run = all.find((r) => r.id === id);
    if (!run) throw fail(`--run ${id}: no such run (runs: ${all.slice(0, 10).map((r) => r.id).join(', ')}${all.length > 10 ? ', ...' : ''})`);
    return run;
  });
  return { runs: picked, origin };
}

/** The name the generated definition is analysed (and its errors reported) under. */
function generatedName(def: ReplayDefinition): string {
  return `${def.name.slice(0, 80)} (generated)`;
}

/** The replay definition the command analyses. Bad input throws fail(...) (exit 2). */
export function replayDefinition(opts: CliOptions, replay: ReplayCliOptions, fail: Fail): { def: ReplayDefinition; runs: RecordedRun[] } {
  if (opts.pipeline !== undefined) throw fail('--pipeline does not apply to --replay: the replay definition is generated from the runs (keep it with --emit-definition)');
  const { runs, origin } = runsOf(opts, replay, fail);
  if (runs.length === 0) throw fail('--replay: the input holds no runs');
  const outcome = outcomeOf(replay, runs, fail);
  let tools;
  if (replay.tools !== undefined) {
    const source = readUserFile(replay.tools, '--tools file', fail);
    tools = { file: { fileName: basename(replay.tools), source }, names: toolNames(replay.tools, source, fail) };
  }
  try {
    const fixes = replay.fixes.map(parseFixSpec);
    const def = buildReplay(runs, { players: replay.players, fixes, outcome, origin, ...(tools && { tools }) });
    // A policy fix names a model alias; one no --model maps would fail every case that replays it.
    for (const { turn, fix } of fixes) {
      if (!fix.startsWith('policy:')) continue;
      const value = fix.slice('policy:'.length);
      const alias = value.includes('@') ? value.slice(0, value.lastIndexOf('@')) : value;
      if (alias !== 'default' && !Object.hasOwn(opts.settings.models ?? {}, alias)) throw fail(`--fix ${turn}=${fix}: no model alias "${alias}" (map it with --model ${alias}=ID)`);
    }
    if (replay.emitDefinition !== undefined) {
      // Only what the analysis accepts is written (docs/security.md, "Generated files"): checked first, in the sandbox.
      try {
        compilePipeline(def.source, generatedName(def));
      } catch (e) {
        if (e instanceof DefinitionError) throw fail(`pipeline definition: ${e.message}`);
        throw e;
      }
      writeWhole(replay.emitDefinition, def.source, 'definition', fail);
    }
    return { def, runs };
  } catch (e) {
    if (e instanceof ReplayPlanError || e instanceof EmbeddedFileError) throw fail(e.message);
    throw e;
  }
}

/** 0,1,2,3,5 -> 0-3,5. */
function ranges(list: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < list.length; i++) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === list[j] + 1) j++;
    parts.push(j > i + 1 ? `${list[i]}-${list[j]}` : j === i + 1 ? `${list[i]},${list[j]}` : `${list[i]}`);
    i = j;
  }
  return parts.join(',');
}

/** Tool turns replayed `via` one way (reused: the recorded result for a changed call; absent: a call the replayed model no longer made), in one replay's outputs. */
function toolTurnsVia(outputs: Record<string, unknown> | undefined, via: 'reused' | 'absent'): number[] {
  const out: number[] = [];
  for (const value of Object.values(outputs ?? {})) {
    const turns = (value as { turns?: Record<string, { via?: string }> } | null)?.turns ?? {};
    for (const [index, turn] of Object.entries(turns)) if (turn?.via === via) out.push(Number(index));
  }
  return out.sort((a, b) => a - b);
}

/** In the factual and the all-fixed replays, the tool turns replayed `via` one way. */
function toolTurnsOf(result: CaseResult, via: 'reused' | 'absent'): number[] {
  return [...new Set([...toolTurnsVia(result.factualOutputs, via), ...toolTurnsVia(result.fixedOutputs, via)])].sort((a, b) => a - b);
}

/**
 * Why a changed call reused its recorded result: no `--tools` file, or one without a stub for
 * that tool (named, so the user knows which stub to add).
 */
export function reusedText(plan: ReplayRunData, reused: readonly number[], toolsFile: string | undefined): string {
  const names = [...new Set(reused.map((i) => plan.turns[i]?.call?.name ?? plan.turns[i]?.name ?? '?'))];
  const why = toolsFile === undefined ? 'give a stub with --tools' : `${toolsFile} has no stub for ${names.join(', ')}`;
  return `  flagged: tool turn${reused.length === 1 ? '' : 's'} ${reused.join(', ')} reused the recorded result for a changed call (${why})`;
}

/**
 * The player a result ranks first, as a Who&When prediction (agent and step); between equals the
 * earliest (upstream of the others). None when no player has positive credit (no fix changed the
 * outcome): taking the first player then would score pipeline order, not the replay.
 */
export function replayPick(result: CaseResult, plan: ReplayRunData, steps: readonly string[], players: ReplayCliOptions['players']): { agent?: string; step?: number } | null {
  if (!result.shapley) return null;
  let best = -1;
  let value = -Infinity;
  steps.slice(0, plan.players.length).forEach((name, p) => {
    const v = result.shapley![name];
    if (v !== undefined && v > value) {
      value = v;
      best = p;
    }
  });
  if (best < 0 || !(value > 0)) return null;
  const first = plan.turns.find((t) => t.player === best);
  if (!first) return null;
  return players === 'agents' ? { agent: first.agent } : { agent: first.agent, step: first.step };
}

const pickText = (pick: { agent?: string; step?: number }): string => `${pick.agent ?? ''}${pick.step !== undefined ? ` at step ${pick.step}` : ''}`;

/**
 * The players after the first whose Shapley value equals the first's (a sampled study stopped
 * early can leave several exactly equal): "ranked first" names only the earliest of them, so the
 * text says it was a tie rather than a ranking.
 */
function tiedForFirst(result: CaseResult, plan: ReplayRunData, steps: readonly string[], players: ReplayCliOptions['players']): { agent?: string; step?: number }[] {
  const values = steps.slice(0, plan.players.length).map((name) => result.shapley?.[name]);
  const top = Math.max(...values.map((v) => v ?? -Infinity));
  const tolerance = 1e-9 * Math.max(1, Math.abs(top));
  const tied = values.flatMap((v, p) => (v !== undefined && Math.abs(v - top) <= tolerance ? [p] : []));
  return tied.slice(1).flatMap((p) => {
    const first = plan.turns.find((t) => t.player === p);
    return first ? [players === 'agents' ? { agent: first.agent } : { agent: first.agent, step: first.step }] : [];
  });
}

/** The replay's part of the output: blocks per case, the turn table. */
export function replayExtras(def: ReplayDefinition, results: readonly CaseResult[], players: ReplayCliOptions['players']): ReplayExtras {
  const blocks = new Map<string, Record<string, unknown>>();
  const caseFields = new Map<string, Record<string, unknown>>();
  const text: string[] = [];
  for (const result of results) {
    const k = def.cases.findIndex((c) => c.id === result.id);
    if (k < 0) continue;
    const plan = def.runs[k];
    const reused = toolTurnsOf(result, 'reused');
    const absent = toolTurnsOf(result, 'absent');
    const pick = replayPick(result, plan, def.steps, players);
    const block = { ...replayBlock(plan, def.steps), toolsReused: reused.length, ...(reused.length > 0 && { reusedTurns: reused }), ...(absent.length > 0 && { absentTurns: absent }), ...(pick && { pick }) };
    blocks.set(result.id, block);
    caseFields.set(result.id, { replay: block, ...(result.usage && { usage: { ...result.usage, toolsReused: reused.length } }) });
    const lines = [`Turns of "${result.id}" (dependsOn: the earlier turns its context quotes)`];
    const links = turnLinks(plan);
    for (const t of plan.turns) {
      const { dependsOn, substitutions } = links[t.index];
      lines.push(`  ${String(t.index).padStart(3)}  step ${String(t.step).padStart(3)}  ${t.kind.padEnd(5)} ${t.agent.slice(0, 24).padEnd(24)} ${(t.player >= 0 ? def.steps[t.player] : '-').slice(0, 28).padEnd(28)} ${t.kind === 'tool' ? (t.caller !== undefined && t.caller >= 0 ? `called by ${t.caller}` : '') : dependsOn.length ? `quotes ${ranges(dependsOn)} (${substitutions}x)` : ''}`.trimEnd());
    }
    if (reused.length) lines.push(reusedText(plan, reused, def.parts.tools?.fileName));
    if (absent.length) lines.push(`  absent: tool turn${absent.length === 1 ? '' : 's'} ${absent.join(', ')}: the replayed model did not make ${absent.length === 1 ? 'that call' : 'those calls'}, so there is no result and later turns see none`);
    if (pick) {
      const ties = tiedForFirst(result, plan, def.steps, players);
      lines.push(`  ranked first: ${pickText(pick)}${ties.length ? ` (tied with ${ties.map(pickText).join(', ')}: the earliest is named${result.stopReason === 'exact' ? '' : '; more samples may separate them'})` : ''}`);
    }
    else if (result.shapley) lines.push('  ranked first: none (no player has positive credit)');
    text.push(lines.join('\n'));
  }
  return { blocks, caseFields, text, json: {} };
}

/** `--score` with `--replay`: the replay's picks scored against the runs' labels, beside the heuristics and a predictions file. */
function replayScore(runs: readonly RecordedRun[], def: ReplayDefinition, results: readonly CaseResult[], players: ReplayCliOptions['players'], predictionsFile: string | undefined, fail: Fail): { json: Record<string, unknown>; text: string } {
  const labelled = runs.filter((r) => r.label !== undefined);
  if (labelled.length === 0) throw fail('--score: none of the runs carries a label to score against (Who&When logs do)');
  const picks = new Map<string, { agent?: string; step?: number } | null>();
  for (const result of results) {
    const k = def.cases.findIndex((c) => c.id === result.id);
    if (k >= 0) picks.set(result.id, replayPick(result, def.runs[k], def.steps, players));
  }
  // Runs this shard did not analyse are not scored (each shard scores its own).
  const analysed = labelled.filter((r) => picks.has(r.id));
  const replay = scoreRuns(analysed, (run) => picks.get(run.id) ?? null);
  const heuristics = scoreHeuristics(analysed).map((h) => ({ name: h.name, all: h.score.all, groups: h.score.groups }));
  let predictions;
  if (predictionsFile !== undefined) {
    const text = readUserFile(predictionsFile, 'predictions file', fail);
    try {
      predictions = scorePredictions(analysed, parsePredictions(text));
    } catch (e) {
      if (e instanceof FormatError) throw fail(`${predictionsFile}: ${e.message}`);
      throw e;
    }
  }
  const json = { runs: analysed.length, replay: { all: replay.all, groups: replay.groups }, heuristics, ...(predictions && { predictions: { all: predictions.all, groups: predictions.groups } }) };
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  // An agent-level replay names no step: its step accuracy would read 0 %, so it is not printed.
  const line = (label: string, s: ScoreSummary, noStep = false) => `${label.padEnd(26)} runs ${String(s.runs).padStart(4)}  agent ${pct(s.agent.rate).padStart(6)} [${pct(s.agent.ci[0])}, ${pct(s.agent.ci[1])}]  step ${noStep ? '     -' : `${pct(s.step.rate).padStart(6)} [${pct(s.step.ci[0])}, ${pct(s.step.ci[1])}]`}`;
  const lines = ['Replay attribution against the labels (exact step index; 95% Wilson intervals)'];
  const block = (label: string, all: ScoreSummary, groups: Record<string, ScoreSummary>, noStep = false) => {
    lines.push(line(label, all, noStep));
    for (const [g, s] of Object.entries(groups)) lines.push(line(`  ${g}`, s, noStep));
  };
  block(`replay (${players})`, replay.all, replay.groups, players === 'agents');
  if (predictions) block('predictions', predictions.all, predictions.groups);
  for (const h of heuristics) block(h.name, h.all, h.groups);
  return { json, text: lines.join('\n') };
}

/**
 * The command's `--replay`: the runs' replay definition analysed by `analyzeSource` (the command's
 * own, with the pool and model host), with the replay's extras beside the usual analysis.
 */
export async function runReplay<A extends { results: CaseResult[]; batch: { usage?: unknown }; modelCache?: { key: string; request: ChatRequest }[] }>(
  opts: CliOptions,
  replay: ReplayCliOptions,
  analyzeSource: (source: string, sourceName: string, cases: CaseDef[], opts: CliOptions) => Promise<A>,
  fail: Fail,
): Promise<A & { replay: ReplayExtras; contrast?: SessionContrast; recordedAt?: string }> {
  const { def, runs } = replayDefinition(opts, replay, fail);
  const analysis = await analyzeSource(def.source, generatedName(def), def.cases, { ...opts, maxModelRounds: replayRounds(def, opts.settings) });
  const extras = replayExtras(def, analysis.results, replay.players);
  // Which turn sent each request the results used (by its seed: see turn-requests.ts).
  const byKey = new Map((analysis.modelCache ?? []).map((e) => [e.key, e.request]));
  for (const result of analysis.results) {
    const k = def.cases.findIndex((c) => c.id === result.id);
    const block = extras.blocks.get(result.id) as { turns?: { requests?: number }[]; judgeRequests?: number; unattributedRequests?: number } | undefined;
    if (k < 0 || !block?.turns) continue;
    const used = (result.modelKeys ?? []).flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : []));
    const counted = turnRequests(def.runs[k], def.steps, def.cases[k], opts.settings, used);
    block.turns.forEach((t, i) => (t.requests = counted.perTurn[i]));
    if (counted.judge > 0) block.judgeRequests = counted.judge;
    if (counted.unattributed > 0) block.unattributedRequests = counted.unattributed;
  }
  let contrast: SessionContrast | undefined;
  if (replay.contrast !== undefined) {
    // The runs this shard analysed; their contrast replays are one-step definitions, analysed whole here.
    const runsHere = def.runs.filter((p) => analysis.results.some((r) => r.id === p.id));
    const study = contrastStudy(def.parts, runsHere, replay.contrast);
    const settings = { ...opts.settings, mode: 'recorded' as const, method: 'exact' as const };
    const contrastOpts: CliOptions = { ...opts, settings, batchStop: false, shard: undefined, save: undefined, html: undefined };
    const done = await analyzeSource(study.source, `${def.name.slice(0, 80)} (contrast)`, study.cases, contrastOpts);
    // Kept with the study: --save and --html carry it, and the session prints it again.
    contrast = { version: 1, replays: replay.contrast, runs: [] };
    for (const plan of runsHere) {
      const report = contrastReport(plan, study, done.results);
      const block = extras.blocks.get(plan.id);
      if (block) Object.assign(block, contrastFields(report));
      extras.text.push(contrastText(plan.id, report, replay.contrast));
      contrast.runs.push({ run: plan.id, commitment: report.commitment, contrast: report.contrast, errors: report.errors });
    }
    if (done.batch.usage) {
      extras.json.contrastUsage = done.batch.usage;
      extras.contrastUsage = done.batch.usage as ModelUsage;
    }
  }
  if (replay.score !== undefined) {
    const scored = replayScore(runs, def, analysis.results, replay.players, typeof replay.score === 'string' ? replay.score : undefined, fail);
    extras.json.replayScore = scored.json;
    extras.text.push(scored.text);
  }
  // When the runs were recorded (their earliest step start), for the saved session's trends.
  const recordedAt = recordedAtOfRuns(runs);
  return { ...analysis, replay: extras, ...(contrast && { contrast }), ...(recordedAt !== undefined && { recordedAt }) };
}
