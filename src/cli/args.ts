import type { CommandModelFlags } from '../model/index.node.ts';
import type { AnalysisSettings, BatchBound } from '../engine/types.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { BATCH_BOUNDS, BATCH_STOP_RULES, type BatchStopRule } from '../engine/setting-choices.ts';
import { parseShard, type Shard } from '../session/shard.ts';
import { labelProblem, tagsProblem } from '../session/study-meta.ts';
import { expectTimestamp } from '../session/validate-fields.ts';
import { finishRepairFlags, takeRepairFlag, type RepairCliOptions } from './repair-args.ts';
import { addModelParam } from './model-param.ts';
import { takeSettingFlag } from './setting-flags.ts';
import { eachArgument, oneOf, takePlainFlag, type PlainFlags } from './flag-reader.ts';
import { DEFAULT_GATE_THRESHOLD } from '../engine/regression/verdict.ts';

// Kept in a file of its own so the flag groups' parsers (repair-args, replay-args) need not import this one.
import { UsageError } from './usage-error.ts';
export { UsageError };

export interface CliOptions {
  /** The first input file (the only one unless session files are merged). */
  file: string;
  /** Every input file, in the order given: several are session files to merge (docs/shards.md). */
  files: string[];
  /** --save FILE: write the session file (inputs, settings, results). */
  save?: string;
  /** --shard i/k: analyse only the cases at 0-based positions j with j mod k = i - 1. */
  shard?: Shard;
  /** --allow-partial: merge session files even when some cases have no result. */
  allowPartial: boolean;
  /** Rounds of model requests a case may take (set by --replay from the most requests its runs can send; not a flag). */
  maxModelRounds?: number;
  /** --compare SESSION: also compare the results with this session file's (docs/compare.md). */
  compare?: string;
  pipeline?: string;
  json: boolean;
  html?: string;
  timeoutMs: number;
  workers?: number;
  batchBound: BatchBound;
  batchStop: boolean;
  /** How the batch stop decides (--batch-stop bandit); 'top' when --batch-stop has no value. */
  batchStopRule: BatchStopRule;
  settings: AnalysisSettings;
  /** The options given on the command line, e.g. '--mode' (to refuse those that do not apply). */
  given: ReadonlySet<string>;
  /** Model steps: where requests go and where responses are kept (settings.models holds the ids). */
  model: ModelOptions;
  /** Minimal repairs, training pairs and the credit audit (repair-args.ts). */
  repair: RepairCliOptions;
  /** --against EARLIER: the regression game of FILE's definition against this earlier version (docs/ci.md). */
  against?: string;
  /** --cases FILE.json: the cases to analyse, instead of the definition's or trace's own. */
  cases?: string;
  /** --gate: exit 1 on a regression (with --against or --compare, docs/ci.md). */
  gate: boolean;
  /** --gate-threshold T: a step's mean blame must rise by more than T (its interval above T) to fail the gate. */
  gateThreshold: number;
  /** --summary FILE: the verdict and table as GitHub-flavoured markdown. */
  summary?: string;
  /** --junit FILE: the verdict as a JUnit XML report. */
  junit?: string;
  /** --replay and its flags (src/cli/replay-args.ts), when given. */
  replay?: import('./replay-options.ts').ReplayCliOptions;
  /** --recorded-at, --pipeline-version, --tag: the study's metadata in a saved session (docs/trends.md). */
  meta: { recordedAt?: string; pipelineVersion?: string; tags: string[] };
}

/** The model flags (`--model-url`, `--api-key-env`, `--concurrency`, `--cache`, `--offline`, `--timeout-request`): the model host reads them as they are. */
export type ModelOptions = CommandModelFlags;


function num(flag: string, value: string, check: (x: number) => boolean, what: string): number {
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || !check(x)) throw new UsageError(`${flag}: expected ${what}, got "${value}"`);
  return x;
}

/** What blame's own flags set (the rest are settings, model, repair and study flags). */
type BlameFlagOptions = Omit<CliOptions, 'file' | 'settings' | 'given' | 'model' | 'repair' | 'meta'> & { file?: string };

/** Blame's flags that only set an option. */
const BLAME_PLAIN_FLAGS: PlainFlags<BlameFlagOptions> = {
  switches: { '--json': 'json', '--allow-partial': 'allowPartial', '--gate': 'gate' },
  texts: { '--pipeline': 'pipeline', '--html': 'html', '--save': 'save', '--compare': 'compare', '--against': 'against', '--cases': 'cases', '--summary': 'summary', '--junit': 'junit' },
};

/**
 * Parse blame's arguments: positionals and `--flag value` pairs, as readCommandLine (command-line.ts)
 * hands them over after checking each flag against the table (flags.ts). Here: what each flag does.
 */
export function parseArgs(argv: readonly string[]): CliOptions {
  const settings: AnalysisSettings = { ...DEFAULT_SETTINGS };
  const fixChoice: Record<string, string> = Object.create(null); // keyed by step names, which may be `__proto__`
  const given = new Set<string>();
  const models: Record<string, string> = {};
  const modelParams: Record<string, Record<string, unknown>> = {};
  const model: ModelOptions = { concurrency: 4, caches: [], offline: false };
  const repair: RepairCliOptions = { repairs: false };
  const meta: CliOptions['meta'] = { tags: [] };
  const opts: BlameFlagOptions = { json: false, timeoutMs: 10_000, batchBound: 'normal', batchStop: false, batchStopRule: 'top', files: [], allowPartial: false, gate: false, gateThreshold: DEFAULT_GATE_THRESHOLD };
  const inline = (arg: string) => arg.startsWith('--') && arg.includes('=') && !arg.startsWith('--fix=');
  eachArgument(argv, (flag, value, arg) => {
    if (flag.startsWith('--')) given.add(flag);
    if (takePlainFlag(opts, flag, value, BLAME_PLAIN_FLAGS)) return;
    switch (flag) {
      case '--batch-stop':
        opts.batchStop = true;
        // `--batch-stop bandit` arrives as `--batch-stop=bandit` (the table's takesNext); bare, the plain stop.
        if (inline(arg)) {
          const rule = value();
          if (!(BATCH_STOP_RULES as readonly string[]).includes(rule)) throw new UsageError(`--batch-stop: unknown rule "${rule}" (rules: ${BATCH_STOP_RULES.join(', ')}; none: the plain top-step stop)`);
          opts.batchStopRule = rule as BatchStopRule;
        }
        break;
      case '--gate-threshold':
        opts.gateThreshold = num(flag, value(), (x) => x >= 0, 'a number at least 0 (a rise of mean blame, in the metric\'s units)');
        break;
      case '--shard': {
        const v = value();
        const shard = parseShard(v);
        if (!shard) throw new UsageError(`--shard: expected I/K with whole numbers 1 <= I <= K (the I-th of K parts), got "${v}"`);
        opts.shard = shard;
        break;
      }
      case '--batch-bound':
        opts.batchBound = oneOf(flag, value(), BATCH_BOUNDS);
        break;
      case '--timeout':
        opts.timeoutMs = 1000 * num(flag, value(), (x) => x > 0 && x <= 86_400, 'seconds, a positive number');
        break;
      case '--workers':
        opts.workers = num(flag, value(), (x) => Number.isInteger(x) && x >= 1 && x <= 256, 'a whole number from 1 to 256');
        break;
      case '--fix': {
        const v = value();
        const eq = v.indexOf('=');
        if (eq <= 0 || eq === v.length - 1) throw new UsageError(`--fix: expected STEP=FIX, got "${v}"`);
        fixChoice[v.slice(0, eq)] = v.slice(eq + 1);
        break;
      }
      case '--model-url': {
        const v = value();
        if (!/^https?:\/\/[^\s]+$/.test(v)) throw new UsageError(`--model-url: expected an http(s) URL such as http://127.0.0.1:11434/v1, got "${v}"`);
        model.url = v;
        break;
      }
      case '--model': {
        const v = value();
        const eq = v.indexOf('=');
        const [alias, id] = eq < 0 ? ['default', v] : [v.slice(0, eq), v.slice(eq + 1)];
        if (alias === '' || id === '' || /\s/.test(alias)) throw new UsageError(`--model: expected ID or ALIAS=ID, got "${v}"`);
        if (Object.hasOwn(models, alias)) throw new UsageError(`--model: alias "${alias}" is given twice`);
        Object.defineProperty(models, alias, { value: id, enumerable: true, writable: true, configurable: true });
        break;
      }
      case '--api-key-env': {
        const v = value();
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) throw new UsageError(`--api-key-env: expected the name of an environment variable, got "${v}"`);
        model.apiKeyEnv = v;
        break;
      }
      case '--concurrency':
        model.concurrency = num(flag, value(), (x) => Number.isInteger(x) && x >= 1 && x <= 256, 'a whole number from 1 to 256');
        break;
      case '--cache':
        model.caches.push(value());
        break;
      case '--offline':
        model.offline = true;
        break;
      case '--model-file': {
        const v = value();
        if (!/\.gguf$/i.test(v)) throw new UsageError(`--model-file: expected a GGUF model file (FILE.gguf), got "${v}"`);
        model.modelFile = v;
        break;
      }
      case '--keep-responses':
        // Read from `given` where session files' caches are merged (src/cli/main.ts).
        break;
      case '--timeout-request':
        model.timeoutRequestMs = Math.round(1000 * num(flag, value(), (x) => x > 0 && x <= 3600, 'seconds, more than 0 and at most 3600'));
        break;
      case '--model-param':
        addModelParam(modelParams, value());
        break;
      case '--recorded-at': {
        const v = value();
        try {
          meta.recordedAt = new Date(expectTimestamp(v, '')).toISOString();
        } catch {
          throw new UsageError(`--recorded-at: expected an ISO date-time such as 2026-03-02T09:00:00Z, got ${JSON.stringify(v)}`);
        }
        break;
      }
      case '--pipeline-version': {
        const v = value();
        const problem = labelProblem(v, 'version label');
        if (problem) throw new UsageError(`--pipeline-version: ${problem}`);
        meta.pipelineVersion = v;
        break;
      }
      case '--tag':
        meta.tags.push(value());
        break;
      default:
        if (takeSettingFlag(settings, flag, value)) break;
        if (takeRepairFlag(repair, flag, value)) break;
        if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
        // Several files are session files to merge (the command checks that they are).
        opts.files.push(arg);
        opts.file ??= arg;
    }
  }, { inline });
  if (opts.file === undefined) throw new UsageError('no input file given');
  if (opts.shard && opts.batchStop) throw new UsageError('--batch-stop needs the whole stream of cases in order, so it cannot stop a shard: leave out one of --batch-stop and --shard');
  if (settings.stop === 'budget' && settings.budget === Infinity) throw new UsageError('--stop budget needs --budget C');
  // The bandit stop runs its cases with shared step runs: the settings (and so the session) say so.
  if (opts.batchStop && opts.batchStopRule === 'bandit') settings.shareSteps = true;
  if (Object.keys(fixChoice).length) settings.fixChoice = fixChoice;
  if (Object.keys(models).length) settings.models = models;
  if (Object.keys(modelParams).length) settings.modelParams = modelParams;
  if (model.modelFile !== undefined && Object.hasOwn(models, 'default')) throw new UsageError('--model-file is the default model: leave out --model ID (or give it as --model ALIAS=ID for another alias)');
  if (model.modelFile !== undefined && model.offline) throw new UsageError('--offline runs no model: leave out --model-file, or drop --offline');
  if (model.offline && model.url !== undefined) throw new UsageError('--offline sends no requests: leave out --model-url, or drop --offline');
  checkGateFlags(opts, given);
  finishRepairFlags(repair, settings);
  const tagProblem = tagsProblem(meta.tags);
  if (tagProblem) throw new UsageError(`--tag ${JSON.stringify(meta.tags[Math.min(tagProblem.index, meta.tags.length - 1)])}: ${tagProblem.problem}`);
  return { ...opts, file: opts.file, settings, given, model, repair, meta };
}

/** The regression flags (docs/ci.md) need something to compare with, and --against analyses one study. */
function checkGateFlags(opts: { against?: string; compare?: string; shard?: Shard; cases?: string; files: string[] }, given: ReadonlySet<string>): void {
  const verdictFlag = verdictFlagGiven(given);
  if (verdictFlag && opts.shard) throw new UsageError(`${verdictFlag} judges the whole study: save each shard (--save) and judge the merged session files (docs/ci.md)`);
  if (opts.against === undefined) return;
  if (opts.compare !== undefined) throw new UsageError('--against and --compare are two ways to judge a change: give one of them');
  if (opts.files.length > 1) throw new UsageError('--against takes one later version (a definition, trace or session file), not several');
  for (const flag of ['--fix', '--batch-stop', '--repairs', '--audit', '--pairs']) {
    if (given.has(flag)) throw new UsageError(`${flag} does not apply to the regression game (each step's one fix is its earlier version)`);
  }
}

/** The first flag given that asks for a verdict (--gate and its outputs), or undefined. */
export function verdictFlagGiven(given: ReadonlySet<string>): string | undefined {
  return ['--gate', '--gate-threshold', '--summary', '--junit'].find((f) => given.has(f));
}

/** What a verdict flag needs: something to judge (a session of a regression game is checked once read). */
export function noChangeToJudge(flag: string): string {
  return `${flag} judges a change: give --against EARLIER.pipeline.js (the regression game), --compare EARLIER-SESSION.json, or the session files of a regression game`;
}
