/**
 * `--why` and `--check` (docs/why.md): which piece of a model call's context caused its decision,
 * which fixes hold, and a check that keeps it fixed.
 *   blame -- FILE --why last|tool:NAME|INDEX [--run ID] [--match REGEX] [--runs N] [--budget CALLS]
 *            [--fill TEXT] [--seed S] [--dry] [--fixes] [--write-check FILE.json] [--write-test FILE]
 *            [--json] [--model-url URL] [--model ID] [--api-key-env NAME] [--concurrency N] [--cache FILE]... [--offline]
 *   blame -- --check FILE.json [--runs N] [--json] [model flags] [--cache FILE]
 * Exit status: 0 done (a check that holds); 1 the check's bad call happened, or a rerun failed; 2 bad input.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { writeWhole } from './write-whole.ts';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { parseInputFile } from '../formats/detect.ts';
import { FormatError } from '../formats/format-error.ts';
import type { ModelHost } from '../model/index.ts';
import type { RecordedRun } from '../runs/index.ts';
import { CHECK_FORMAT, CHECK_VERSION, parseCheck, serializeCheck, type CheckFile, decides, describePredicate, insteadOf, candidateFixes, fixEdit, tryFixes, type FixResult, hostRerun, WhyRerunError, rerunRequestOf, explainDecision, WHY_DEFAULTS, type WhyResult, applyEdit, missingPiece, callDigest, dryRanking, contextOf, recordedReply, selectCall, WhySelectionError, inputProblem, WHY_FLAG_NAMES, type SelectedCall } from '../why/index.ts';
import { formatCheck, formatDry, formatWhy } from './why-text.ts';
import { printable, printableLines, safeJsonText } from './printable.ts';
import { usageOf } from './help.ts';
import { eachArgument } from './flag-reader.ts';
import { codeLiteral } from '../engine/safe-text.ts';

export const WHY_USAGE = `${usageOf('why')}\n${usageOf('check')}`;

/** A rerun the model host could not get: one line on stderr, exit status 1 (the input was fine). */
class WhyRunError extends Error {}

class WhyInputError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

interface WhyOptionsCli {
  file?: string;
  why?: string;
  check?: string;
  run?: string;
  match?: string;
  runs?: number;
  budget?: number;
  fill?: string;
  seed: number;
  dry: boolean;
  fixes: boolean;
  writeCheck?: string;
  writeTest?: string;
  json: boolean;
  toolResults?: 'tool' | 'user';
  model: { url?: string; apiKeyEnv?: string; concurrency: number; caches: string[]; offline: boolean; id?: string };
}

/** Whether the command line asks for why or a check (so main hands over to us). */
export function wantsWhy(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--why' || a.startsWith('--why=') || a === '--check' || a.startsWith('--check='));
}

function whole(flag: string, value: string, min: number, max: number): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isInteger(x) || x < min || x > max) throw new WhyInputError(`${flag}: expected a whole number from ${min} to ${max}, got "${value}"`, true);
  return x;
}

export function parseWhyArgs(argv: readonly string[]): WhyOptionsCli {
  const o: WhyOptionsCli = { seed: 1, dry: false, fixes: false, json: false, model: { concurrency: 4, caches: [], offline: false } };
  eachArgument(argv, (flag, value, arg) => {
    switch (flag) {
      case '--why': o.why = value(); break;
      case '--check': o.check = value(); break;
      case '--run': o.run = value(); break;
      case '--match': o.match = value(); break;
      case '--runs': o.runs = whole(flag, value(), 2, 1000); break;
      case '--budget': o.budget = whole(flag, value(), 1, 100_000); break;
      case '--fill': o.fill = value(); break;
      case '--seed': o.seed = whole(flag, value(), 0, Number.MAX_SAFE_INTEGER); break;
      case '--dry': o.dry = true; break;
      case '--fixes': o.fixes = true; break;
      case '--write-check': o.writeCheck = value(); break;
      case '--write-test': o.writeTest = value(); break;
      case '--json': o.json = true; break;
      case '--tool-results': {
        const v = value();
        if (v !== 'tool' && v !== 'user') throw new WhyInputError(`--tool-results: expected tool or user, got "${v}"`, true);
        o.toolResults = v;
        break;
      }
      case '--model-url': {
        const v = value();
        if (!/^https?:\/\/[^\s]+$/.test(v)) throw new WhyInputError(`--model-url: expected an http(s) URL such as http://127.0.0.1:11434/v1, got "${v}"`, true);
        o.model.url = v;
        break;
      }
      case '--model': {
        const v = value();
        if (v === '' || v.includes('=')) throw new WhyInputError(`--model: --why reruns one call, so it takes one model ID, got "${v}"`, true);
        o.model.id = v;
        break;
      }
      case '--api-key-env': {
        const v = value();
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) throw new WhyInputError(`--api-key-env: expected the name of an environment variable, got "${v}"`, true);
        o.model.apiKeyEnv = v;
        break;
      }
      case '--concurrency': o.model.concurrency = whole(flag, value(), 1, 256); break;
      case '--cache': o.model.caches.push(value()); break;
      case '--offline': o.model.offline = true; break;
      default:
        if (arg.startsWith('-')) throw new WhyInputError(`${arg} does not apply to --why or --check`, true);
        if (o.file !== undefined) throw new WhyInputError(`--why explains one call of one file: "${o.file}" and "${arg}" given`, true);
        o.file = arg;
    }
  }, { missing: (flag) => new WhyInputError(`${flag} needs a value`, true) });
  if (o.check !== undefined) {
    if (o.why !== undefined) throw new WhyInputError('--check reruns a check file: leave out --why (or --check)', true);
    if (o.file !== undefined) throw new WhyInputError(`--check reads its trace from the check file: leave out "${o.file}"`, true);
    const extra = (['dry', 'fixes'] as const).find((k) => o[k]) ?? (['writeCheck', 'writeTest', 'match', 'run', 'budget', 'fill'] as const).find((k) => o[k] !== undefined);
    if (extra) throw new WhyInputError(`--${extra.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply to --check`, true);
    return o;
  }
  if (o.file === undefined) throw new WhyInputError('no input file given', true);
  if (o.why === undefined) throw new WhyInputError('--why needs a call: last, tool:NAME or a step index', true);
  if (o.dry && (o.fixes || o.writeCheck !== undefined || o.writeTest !== undefined)) throw new WhyInputError('--dry makes no model call, so it cannot try fixes or write a check', true);
  if (o.writeTest !== undefined && o.writeCheck === undefined) throw new WhyInputError('--write-test runs a check file: give --write-check FILE.json too', true);
  if (o.model.offline && o.model.url !== undefined) throw new WhyInputError('--offline sends no requests: leave out --model-url, or drop --offline', true);
  return o;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new WhyInputError(`cannot read ${what} "${path}": ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

function readRun(file: string, text: string, runId: string | undefined): RecordedRun {
  let input;
  try {
    input = parseInputFile(text, basename(file));
  } catch (e) {
    if (e instanceof FormatError) throw new WhyInputError(`${file}: ${e.message}`);
    throw e;
  }
  if (input.kind !== 'runs') throw new WhyInputError(`"${file}" is not a recorded run (it is a ${input.kind} file): --why explains a model call of a recorded run`);
  const runs = input.runs.runs;
  if (runId !== undefined) {
    const run = runs.find((r) => r.id === runId);
    if (!run) throw new WhyInputError(`--run ${runId}: "${file}" has no run with that id (runs: ${runs.slice(0, 10).map((r) => r.id).join(', ')})`);
    return run;
  }
  if (runs.length !== 1) throw new WhyInputError(`"${file}" holds ${runs.length} runs: say which with --run ID (${runs.slice(0, 10).map((r) => r.id).join(', ')})`);
  return runs[0];
}

async function modelHost(o: WhyOptionsCli, model: string, what: string): Promise<ModelHost> {
  const { commandModelHost } = await import('../model/index.node.ts');
  let made;
  try {
    made = commandModelHost(o.model, { default: model }, process.env);
  } catch (e) {
    if (e instanceof Error && (e.name === 'EndpointConfigError' || e.name === 'CacheFileError')) throw new WhyInputError(e.message);
    throw e;
  }
  if (!made) throw new WhyInputError(`${what} reruns the model call: give --model-url URL (or --cache FILE with --offline)`);
  for (const warning of made.warnings) process.stderr.write(`blame: ${printable(warning)}\n`);
  return made.host;
}

function modelOf(o: WhyOptionsCli, call: SelectedCall): string {
  const id = o.model.id ?? call.step.model;
  if (!id) throw new WhyInputError(`step ${call.index} records no model: give --model ID`);
  return id;
}

/** The fix a check holds: the smallest change that passed (rules before removing content). */
function bestPassing(fixes: readonly FixResult[]): FixResult | undefined {
  return fixes.find((f) => f.verdict === 'PASS');
}

function writeFileWhole(path: string, text: string, what: string): void {
  try {
    // Checks live in a folder of their own (checks/...), often not made yet.
    mkdirSync(dirname(resolve(path)), { recursive: true });
  } catch (e) {
    throw new WhyInputError(`cannot write the ${what} to "${path}": ${(e as Error).message}`);
  }
  writeWhole(path, text, what, (message) => new WhyInputError(message));
}

/**
 * A `node:test` file that runs the check with the command, for CI. Every text from the trace or the
 * command line (the decision names a recorded tool, paths name files) is a JSON literal written by
 * `codeLiteral`, never part of a comment or a template (docs/security.md, "Generated files").
 */
export function checkTestSource(testFile: string, checkFile: string, blameEntry: string, modelUrl: string | undefined, apiKeyEnv: string | undefined, what: string, toolResults?: 'tool' | 'user'): string {
  const rel = (to: string) => {
    const r = relative(dirname(resolve(testFile)), resolve(to)).split('\\').join('/');
    return r.startsWith('.') ? r : `./${r}`;
  };
  const extra = [...(apiKeyEnv ? ['--api-key-env', apiKeyEnv] : []), ...(toolResults ? ['--tool-results', toolResults] : [])];
  return `// Written by agentblame (--write-test): reruns a recorded model call with its fix, on every run,
// with no cache, and fails if the agent makes the decision DECISION names again (for example after
// a model upgrade). The endpoint: AGENTBLAME_MODEL_URL, else the one the check was written with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const CHECK = here(${codeLiteral(rel(checkFile))});
const BLAME = here(${codeLiteral(rel(blameEntry))});
const DECISION = ${codeLiteral(what)};
const CHECK_NAME = ${codeLiteral(basename(checkFile))};
const MODEL_URL = process.env.AGENTBLAME_MODEL_URL || ${codeLiteral(modelUrl ?? null)};

test('the agent no longer ' + DECISION + ' (' + CHECK_NAME + ')', () => {
  assert.ok(MODEL_URL, 'set AGENTBLAME_MODEL_URL to the model endpoint');
  const args = [BLAME, '--check', CHECK, '--model-url', MODEL_URL, ...${codeLiteral(extra)}];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
`;
}

async function whyRun(o: WhyOptionsCli): Promise<number> {
  const file = o.file!;
  const text = readText(file, 'input file');
  const run = readRun(file, text, o.run);
  let call: SelectedCall;
  try {
    call = selectCall(run, o.why!, o.match);
  } catch (e) {
    // The engine's message is neutral: the command names the flag it is about.
    if (e instanceof WhySelectionError) throw new WhyInputError(inputProblem(e, WHY_FLAG_NAMES));
    throw e;
  }
  const decision = { run: run.id, call: call.index, step: call.step.id, predicate: call.predicate, description: describePredicate(call.predicate) };
  if (o.dry) {
    const ranked = dryRanking(call.messages, call.predicate, call.recorded);
    process.stdout.write((o.json ? safeJsonText(JSON.stringify({ decision, dry: true, pieces: ranked })) : printableLines(formatDry(decision, ranked))) + '\n');
    return 0;
  }
  const model = modelOf(o, call);
  const host = await modelHost(o, model, '--why');
  const rerunNotes: string[] = [];
  const rerun = hostRerun(host, { model, seed: o.seed, call: call.index, ...rerunRequestOf(call.step), ...(o.toolResults && { toolResults: o.toolResults }), onNote: (n) => rerunNotes.push(n) });
  const live = process.stderr.isTTY && !o.json;
  const runs = o.runs ?? WHY_DEFAULTS.runs;
  let why: WhyResult;
  let fixes: FixResult[] | undefined;
  try {
    why = await explainDecision(call.messages, call.predicate, call.recorded, rerun, {
      runs,
      ...(o.budget !== undefined && { budget: o.budget }),
      ...(o.fill !== undefined && { fill: o.fill }),
      ...(live && { onProgress: (p: { calls: number; stage: string }) => process.stderr.write(`\rwhy: ${p.stage}, ${p.calls} reruns\x1b[K`) }),
    });
    if (o.fixes) fixes = await tryFixes(call.messages, call.predicate, why.base, candidateFixes(call.messages, call.predicate, why, o.fill), rerun, { runs });
  } catch (e) {
    if (e instanceof WhyRerunError) throw new WhyRunError(e.message);
    throw e;
  } finally {
    if (live) process.stderr.write('\r\x1b[K');
  }
  const cacheHits = host.usage('why').cacheHits;
  if (o.writeCheck !== undefined) {
    const fix = fixes ? bestPassing(fixes) : undefined;
    const { name, addSystem, remove, fill } = fix ?? ({} as Partial<FixResult>);
    const check: CheckFile = {
      format: CHECK_FORMAT,
      version: CHECK_VERSION,
      trace: { file: relative(dirname(resolve(o.writeCheck)), resolve(file)).split('\\').join('/'), run: run.id, digest: callDigest(call.messages, call.recorded) },
      call: { index: call.index, step: call.step.id },
      predicate: call.predicate,
      fix: name ? { name, ...(addSystem !== undefined && { addSystem }), ...(remove !== undefined && { remove }), ...(fill !== undefined && { fill }) } : null,
      runs,
      model,
      seed: o.seed,
    };
    writeFileWhole(o.writeCheck, serializeCheck(check), 'check file');
    if (!fix) process.stderr.write(`blame: note: ${fixes ? 'no fix passed' : 'no fixes tried (--fixes)'}: the check holds the recorded context as it is, so it fails while the model still ${printable(describePredicate(call.predicate))}\n`);
    if (o.writeTest !== undefined) {
      // The launcher that runs us: npm run blame's blame.mjs, or the installed agentblame (its bin or bundle).
      const entry = process.argv[1] && /(^|[\\/])(blame\.mjs|agentblame(\.mjs)?)$/.test(process.argv[1]) ? process.argv[1] : resolve('src/cli/blame.mjs');
      writeFileWhole(o.writeTest, checkTestSource(o.writeTest, o.writeCheck, entry, o.model.url, o.model.apiKeyEnv, describePredicate(call.predicate), o.toolResults), 'test file');
    }
  }
  const json = {
    decision,
    model,
    base: why.base,
    stable: why.stable,
    headline: why.headline,
    pieces: why.pieces,
    pairs: why.pairs,
    headlineCheck: why.headlineCheck,
    calls: why.calls + (fixes ? fixes.reduce((n, f) => n + f.n, 0) : 0),
    cacheHits,
    budgetReached: why.budgetReached,
    skipped: why.skipped,
    notes: [...rerunNotes, ...why.notes],
    ...(fixes && { fixes }),
  };
  process.stdout.write((o.json ? safeJsonText(JSON.stringify(json)) : printableLines(formatWhy(json))) + '\n');
  return 0;
}

async function checkRun(o: WhyOptionsCli): Promise<number> {
  const checkPath = o.check!;
  let check: CheckFile;
  try {
    check = parseCheck(readText(checkPath, 'check file'));
  } catch (e) {
    if (e instanceof FormatError) throw new WhyInputError(`${checkPath}: ${e.message}`);
    throw e;
  }
  const tracePath = isAbsolute(check.trace.file) ? check.trace.file : resolve(dirname(checkPath), check.trace.file);
  const text = readText(tracePath, 'the check\'s trace');
  const run = readRun(tracePath, text, check.trace.run);
  const step = run.steps[check.call.index];
  if (!step || step.id !== check.call.step || step.kind !== 'llm') throw new WhyInputError(`${checkPath}: call.index ${check.call.index} is not model step "${check.call.step}" of run "${run.id}" in "${tracePath}"`);
  if (callDigest(contextOf(step), recordedReply(step)) !== check.trace.digest) throw new WhyInputError(`${checkPath}: step ${check.call.index} of run "${run.id}" is not the call the check was written for (its context or answer differs from the digest)`);
  // A removal naming a piece the context does not have would remove nothing and "pass".
  (check.fix?.remove ?? []).forEach((path, i) => {
    const missing = missingPiece(contextOf(step), path);
    if (missing !== undefined) throw new WhyInputError(`${checkPath}: fix.remove[${i}]: names no piece of the call's context: ${missing}`);
  });
  const model = o.model.id ?? check.model;
  const host = await modelHost(o, model, '--check');
  const rerunNotes: string[] = [];
  const rerun = hostRerun(host, { model, seed: check.seed, call: check.call.index, ...rerunRequestOf(step), ...(o.toolResults && { toolResults: o.toolResults }), onNote: (n) => rerunNotes.push(n) });
  const runs = o.runs ?? check.runs;
  const context = applyEdit(contextOf(step), check.fix ? fixEdit(check.fix) : {});
  let replies;
  try {
    replies = await rerun(context, Array.from({ length: runs }, (_, i) => i));
  } catch (e) {
    if (e instanceof WhyRerunError) throw new WhyRunError(e.message);
    throw e;
  }
  const k = replies.filter((r) => decides(check.predicate, r)).length;
  const result = { check: checkPath, fix: check.fix?.name ?? null, decision: describePredicate(check.predicate), k, n: runs, passed: k === 0, instead: insteadOf(check.predicate, replies), cacheHits: host.usage('why').cacheHits, ...(rerunNotes.length > 0 && { notes: rerunNotes }) };
  process.stdout.write((o.json ? safeJsonText(JSON.stringify(result)) : printableLines(formatCheck(result))) + '\n');
  return k === 0 ? 0 : 1;
}

export async function whyMain(argv: readonly string[]): Promise<number> {
  // --match and a check file's predicate.match run on the host: with V8's linear-time matcher
  // (compileMatch), never backtracking for hours on an answer (docs/security.md).
  setFlagsFromString('--enable-experimental-regexp-engine');
  try {
    const o = parseWhyArgs(argv);
    return o.check !== undefined ? await checkRun(o) : await whyRun(o);
  } catch (e) {
    if (e instanceof WhyInputError) {
      process.stderr.write(`blame: ${printable(e.message.replace(/\s*\n\s*/g, ' '))}\n${e.usage ? `${WHY_USAGE}\n` : ''}`);
      return 2;
    }
    if (e instanceof WhyRunError) {
      process.stderr.write(`blame: ${printable(e.message.replace(/\s*\n\s*/g, ' '))}\n`);
      return 1;
    }
    throw e;
  }
}
