/**
 * The command's flag table: every flag once, with its kind, default, help line, group and the
 * commands that take it, and the commands themselves (docs/cli.md is generated from this file).
 * The command line is read once, against this table (command-line.ts); `--help`, `agentblame help
 * TOPIC`, the usage lines and docs/cli.md's tables (with the flags that re-run a stored study) are
 * derived from it (help.ts); `src/cli/flags.test.ts` fails when a doc and the table differ, when a
 * parser reads a flag the table lacks, or when a command line the docs show is refused.
 *
 * Adding a flag (docs/cli.md, "Adding a flag or a command"):
 *  1. A setting of the analysis: add it to the settings schema (src/engine/settings/schema.ts) with
 *     its `flag`, and its help line to SETTING_HELP below (the type checker asks for it). Its kind,
 *     default, values and bounds are read off the schema; the parser (setting-flags.ts) too.
 *  2. Any other flag: add one entry to OWN_FLAGS below (name, value placeholder, kind, default, help,
 *     group, commands). The same name may appear twice only for disjoint commands (`--fix` means
 *     STEP=FIX for blame and TURN=KIND for replay). Then read it in the parser of its command: blame's
 *     `parseArgs` (args.ts), replay's `takeReplayArgs` (replay-args.ts), why's `parseWhyArgs`
 *     (why-command.ts), or your command's own; the parser is given the flags as `--flag value` pairs
 *     already checked against this table (a flag a command does not take never reaches it).
 *  3. `npm run docs:cli` rewrites docs/cli.md; `npx vitest run src/cli/flags.test.ts` checks it.
 * Adding a command: an entry in COMMANDS (usage, summary, doc, the legacy flag that selects it if
 * any, and how its positionals become the parser's arguments in command-line.ts), its name in the
 * `commands` of every flag it takes, and a case in `main()` (main.ts) that runs it.
 */
import { DEFAULT_GATE_THRESHOLD } from '../engine/regression/verdict.ts';
import { settingEntries, type BooleanSetting, type ChoiceSetting, type NumberSetting, type SettingKey } from '../engine/settings/schema.ts';
import { BATCH_BOUNDS, BATCH_STOP_RULES } from '../engine/setting-choices.ts';
import { PLAYERS_KINDS } from '../replay/index.ts';
import { WHY_DEFAULTS } from '../why/index.ts';

export const COMMAND_NAMES = ['blame', 'replay', 'repairs', 'compare', 'merge', 'why', 'check', 'inspect', 'trend'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export interface CommandSpec {
  /** The usage line (after `agentblame `). */
  usage: string;
  /** One line: what the command does. */
  summary: string;
  /** Where it is documented. */
  doc: string;
  /**
   * The flag that selected this mode before there were commands (`FILE --replay ...`): still
   * accepted anywhere on the line, so every earlier invocation keeps working.
   */
  legacyFlag?: string;
}

export const COMMANDS: Readonly<Record<CommandName, CommandSpec>> = {
  blame: {
    usage: '[blame] FILE [SESSION.json...] [flags]',
    summary: 'blame the steps of a trace, a pipeline definition (.js with its cases), a game file, or a session file (printed, re-run or merged)',
    doc: 'docs/cli.md',
  },
  replay: {
    usage: 'replay RUN_FILE|FOLDER... [flags]',
    summary: 'blame recorded runs (OpenTelemetry, Langfuse, LangSmith, Who&When, ...) by replaying them with a model, turn by turn',
    doc: 'docs/replay.md',
    legacyFlag: '--replay',
  },
  repairs: {
    usage: 'repairs FILE [flags]',
    summary: "blame, then list each failure's minimal repairs and the batch's causal consensus (blame FILE --repairs)",
    doc: 'docs/repairs.md',
  },
  compare: {
    usage: 'compare FILE EARLIER-SESSION.json [flags]',
    summary: "blame FILE (or print a session file) beside an earlier session file's results (blame FILE --compare EARLIER)",
    doc: 'docs/compare.md',
  },
  merge: {
    usage: 'merge SESSION.json SESSION.json... [flags]',
    summary: 'merge the session files of the shards of one study into exactly the unsharded result',
    doc: 'docs/shards.md',
  },
  why: {
    usage: 'why RUN_FILE [--why last|tool:NAME|INDEX] [flags]',
    summary: "which piece of a model call's context caused its decision, which fixes hold, and a check that keeps it fixed",
    doc: 'docs/why.md',
    legacyFlag: '--why',
  },
  check: {
    usage: 'check CHECK.json [flags]',
    summary: 'rerun a check file written by why --write-check: exit 1 when the bad call happens again',
    doc: 'docs/why.md',
    legacyFlag: '--check',
  },
  inspect: {
    usage: 'inspect RUN_FILE|FOLDER... [--score PREDICTIONS.json] [--json]',
    summary: 'open recorded runs without analysing them (the run model, or a tree), and score predictions against their labels',
    doc: 'docs/recorded-runs.md',
    legacyFlag: '--inspect',
  },
  trend: {
    usage: 'trend SESSION.json...|FOLDER [--by week|day|month|version|tag:KEY] [flags]',
    summary: "which step causes the failures period by period, and whether that changed: a pipeline's saved sessions (or shard results, or reports) over time",
    doc: 'docs/trends.md',
  },
};

/**
 * switch: no value. value: one value (`--flag V` or `--flag=V`). list: a value, repeatable.
 * optional-value: a value only when written `--flag=V` or when the next argument is one (takesNext).
 */
export type FlagKind = 'switch' | 'value' | 'list' | 'optional-value';

export const FLAG_GROUPS = {
  mode: 'Commands as flags (kept from before the commands)',
  input: 'Input',
  method: 'Method and settings',
  run: 'Running',
  output: 'Output',
  model: 'Model steps',
  shards: 'Session files, shards and merges',
  compare: 'Comparing',
  gate: 'Regressions and the CI gate',
  repairs: 'Repairs, training pairs and the credit audit',
  replay: 'Replaying recorded runs',
  why: 'Why this decision, and checks',
  trends: 'Trends and study metadata',
  inspect: 'Recorded runs',
  general: 'General',
} as const;
export type FlagGroup = keyof typeof FLAG_GROUPS;

export interface FlagSpec {
  /** As written, e.g. `--worlds`. */
  name: string;
  /** The value's placeholder in help (`N`, `FILE.js`); absent for a switch. */
  value?: string;
  kind: FlagKind;
  /** The default as help shows it ('' when there is none to show). */
  default: string;
  /** One line: what it does. */
  help: string;
  group: FlagGroup;
  commands: readonly CommandName[];
  /** optional-value: whether the next argument is the flag's value. */
  takesNext?: (next: string) => boolean;
  /** The settings schema's field it sets (setting flags only). */
  setting?: SettingKey;
}

/** The commands that analyse (what blame takes, replay and the aliases take too). */
const STUDY: readonly CommandName[] = ['blame', 'replay', 'repairs', 'compare', 'merge'];
/** The commands that analyse a definition or a game (not a replay). */
const DEFINITION: readonly CommandName[] = ['blame', 'repairs', 'compare'];
const MODEL_USERS: readonly CommandName[] = [...STUDY, 'why', 'check'];

type FlagSetting = NumberSetting | ChoiceSetting | BooleanSetting;
type FlagSettingKey = 'mode' | 'worlds' | 'method' | 'delta' | 'stop' | 'width' | 'budget' | 'maxPermutations' | 'radius' | 'estimator' | 'seed' | 'tieTolerance' | 'interactions' | 'shareSteps';

/** The help line of each setting with a flag of its own (kind, default and values come from the schema). */
const SETTING_HELP: Readonly<Record<FlagSettingKey, { value?: string; help: string; default?: string }>> = {
  mode: { help: 'recorded (replay the case as recorded), posterior or prior (resample the model steps in several worlds; docs/method.md)' },
  worlds: { value: 'N', help: 'worlds per case in posterior and prior modes' },
  method: {
    help: 'exact (all 2^n coalitions) or mc (permutation sampling; stops with the exact values once every coalition is known); auto: exact while its 2^n queries are within what mc may ask at --max-permutations, mc above',
  },
  delta: { value: 'D', help: 'all Monte Carlo intervals hold together with probability at least 1 - D' },
  stop: { help: 'Monte Carlo stop rule: top1, ranking, width (with --width W) or budget (with --budget C)' },
  width: { value: 'W', help: 'the interval half-width --stop width waits for' },
  budget: { value: 'C', help: 'step-cost budget per case for Monte Carlo, for the whole analysis: sampling, interactions, baselines (greater than 0, or none)' },
  maxPermutations: { value: 'N', help: 'cap on permutations per case (estimators that sample sets count n - 1 queries as one; none: no cap)' },
  radius: {
    help: 'Monte Carlo intervals: betting (anytime-valid betting confidence sequences, checked after every sample), bernstein (empirical Bernstein) or hoeffding, on a checkpoint schedule',
  },
  estimator: { value: 'NAME', help: 'Monte Carlo estimator, from the registry (docs/estimators.md)' },
  seed: { value: 'S', help: 'seed of the permutation sampler and of the worlds' },
  tieTolerance: {
    value: 'T',
    help: 'with --stop top1 or ranking: two steps whose difference is shown to lie within ±T count as tied, so a tie stops the sampling instead of running to the cap',
    default: '0 (off)',
  },
  interactions: { help: 'also compute the Shapley interaction index of every pair of steps (exact up to 12 steps, sampled above)' },
  shareSteps: { help: 'reuse a step run across cases whose inputs to that step are the same, when it drew no noise and called no model (same values, lower cost; the cost then depends on which worker ran which case)' },
};

function shownNumber(x: number): string {
  return x === Infinity ? 'none' : String(x);
}

/** The flags of the settings schema, in its order. */
function settingFlags(): FlagSpec[] {
  return settingEntries()
    .filter((e): e is readonly [FlagSettingKey, FlagSetting] => e[1].kind !== 'structured' && e[1].flag !== null)
    .map(([key, setting]) => {
      const words = SETTING_HELP[key];
      const value = setting.kind === 'boolean' ? undefined : setting.kind === 'choice' ? (words.value ?? setting.values.join('|')) : (words.value ?? 'N');
      const bounds = setting.kind === 'number' ? ` (${setting.integer ? 'a whole number' : 'a number'} ${setting.minExclusive ? 'above' : 'from'} ${setting.min}${setting.max === Infinity ? '' : ` ${setting.maxExclusive ? 'below' : 'to'} ${setting.max}`})` : '';
      const choices = setting.kind === 'choice' && words.value !== undefined ? ` (${setting.values.join(', ')})` : '';
      return {
        name: setting.flag!,
        ...(value !== undefined && { value }),
        kind: setting.kind === 'boolean' ? ('switch' as const) : ('value' as const),
        default: words.default ?? (setting.kind === 'boolean' ? (setting.default ? 'on' : 'off') : setting.kind === 'number' ? shownNumber(setting.default) : setting.default),
        help: `${words.help}${choices}${bounds}`,
        group: 'method' as const,
        commands: STUDY,
        setting: key,
      };
    });
}

const isPredictionsFile = (next: string): boolean => !next.startsWith('-') && /predictions/i.test(next);

/** Every flag that is not a setting of the schema. */
const OWN_FLAGS: readonly FlagSpec[] = [
  // Commands as flags: each selects its command wherever it stands on the line.
  { name: '--replay', kind: 'switch', default: '', help: 'the replay command: FILE... --replay is agentblame replay FILE...', group: 'mode', commands: ['replay'] },
  { name: '--why', value: 'last|tool:NAME|INDEX', kind: 'value', default: 'last (with agentblame why)', help: 'the call: the last model call, the last one that called tool NAME, or the step at INDEX (as inspect numbers them); FILE --why CALL is agentblame why FILE --why CALL', group: 'why', commands: ['why'] },
  { name: '--check', value: 'CHECK.json', kind: 'value', default: '', help: 'the check command: --check FILE is agentblame check FILE', group: 'mode', commands: ['check'] },
  { name: '--inspect', kind: 'switch', default: '', help: 'the inspect command: FILE... --inspect is agentblame inspect FILE...', group: 'mode', commands: ['inspect'] },

  { name: '--pipeline', value: 'FILE.js', kind: 'value', default: "the trace's own", help: 'the pipeline definition, when the trace carries none (or to replace it; re-runs a session file with it)', group: 'input', commands: DEFINITION },
  { name: '--fix', value: 'STEP=FIX', kind: 'list', default: "each step's first fix", help: "use another of a step's fixes (repeatable)", group: 'method', commands: DEFINITION },
  { name: '--batch-bound', value: BATCH_BOUNDS.join('|'), kind: 'value', default: 'normal', help: 'interval of the batch means: normal, bernstein or anytime (a betting confidence sequence over the cases in order)', group: 'method', commands: [...STUDY, 'trend'] },
  {
    name: '--batch-stop', value: '[bandit]', kind: 'optional-value', default: 'off',
    help: 'stop analysing failures once the top step is separated (valid with anytime and bernstein; normal waits for 30 failures); bandit: share step runs across cases and bet more boldly, anytime-valid (docs/estimators.md)',
    group: 'method', commands: STUDY, takesNext: (next) => (BATCH_STOP_RULES as readonly string[]).includes(next),
  },

  { name: '--timeout', value: 'S', kind: 'value', default: '10', help: 'time limit per case in seconds (time spent waiting for model responses is not counted: the clock starts again at each answer)', group: 'run', commands: STUDY },
  { name: '--workers', value: 'N', kind: 'value', default: 'one per core (no more than the cases)', help: 'analysis workers (a whole number from 1 to 256)', group: 'run', commands: STUDY },

  { name: '--json', kind: 'switch', default: 'tables', help: 'print one JSON object on stdout, nothing else', group: 'output', commands: [...STUDY, 'why', 'check', 'inspect', 'trend'] },
  { name: '--html', value: 'FILE', kind: 'value', default: '', help: 'also write the self-contained HTML report', group: 'output', commands: STUDY },
  { name: '--save', value: 'FILE', kind: 'value', default: '', help: 'also write the session file (inputs, settings, results; what the workbench exports and opens)', group: 'output', commands: STUDY },

  { name: '--model-url', value: 'URL', kind: 'value', default: 'none', help: 'OpenAI-compatible endpoint for model steps (POST URL/chat/completions)', group: 'model', commands: MODEL_USERS },
  { name: '--model', value: '[ALIAS=]ID', kind: 'list', default: "the definition's models", help: 'model id of an alias (ID alone: the default alias); repeatable', group: 'model', commands: STUDY },
  { name: '--model', value: 'ID', kind: 'value', default: 'the recorded one', help: 'the model that reruns the call', group: 'model', commands: ['why', 'check'] },
  { name: '--api-key-env', value: 'NAME', kind: 'value', default: 'none', help: "read the endpoint's API key from this environment variable (never written anywhere)", group: 'model', commands: MODEL_USERS },
  { name: '--concurrency', value: 'N', kind: 'value', default: '4', help: 'model requests in flight at once (1 to 256)', group: 'model', commands: MODEL_USERS },
  { name: '--cache', value: 'FILE', kind: 'list', default: 'none', help: 'response cache (JSONL, appended as responses arrive); repeatable: all are read, the first is written', group: 'model', commands: MODEL_USERS },
  { name: '--offline', kind: 'switch', default: 'off', help: "send no requests: a response missing from the cache is the case's error (refused with --model-url)", group: 'model', commands: MODEL_USERS },
  { name: '--timeout-request', value: 'S', kind: 'value', default: '60', help: "time limit of one model request's attempt, in seconds (a time-out also halves the requests in flight)", group: 'model', commands: STUDY },
  { name: '--model-file', value: 'FILE.gguf', kind: 'value', default: 'none', help: "run this GGUF model file here (node-llama-cpp, installed apart) for the default alias; its model id is gguf-sha256:<hash>, the same requests and cache keys as the page's in-page model", group: 'model', commands: STUDY },
  { name: '--model-param', value: 'ALIAS.KEY=VALUE', kind: 'list', default: "the definition's modelParams", help: 'an extra endpoint parameter sent with every request of the alias (VALUE read as JSON when it is JSON); repeatable; part of the cache key', group: 'model', commands: STUDY },

  { name: '--shard', value: 'I/K', kind: 'value', default: 'all cases', help: 'analyse only the cases at 0-based positions j with j mod K = I - 1 (save each shard, then merge)', group: 'shards', commands: STUDY },
  { name: '--allow-partial', kind: 'switch', default: 'refuse', help: 'merge session files even when some cases have no result (says what is missing)', group: 'shards', commands: ['blame', 'merge', 'compare'] },
  { name: '--keep-responses', kind: 'switch', default: 'off', help: "with session files printed or merged and --cache FILE: also append the sessions' own model responses to the first cache", group: 'shards', commands: ['blame', 'merge', 'compare'] },

  { name: '--compare', value: 'EARLIER-SESSION.json', kind: 'value', default: '', help: 'also compare with an earlier session file or report: per step the change in mean Shapley with its interval, in fix-alone rate and rank, and the cases that moved most', group: 'compare', commands: STUDY },
  { name: '--cases', value: 'CASES.json', kind: 'value', default: "the definition's or trace's own", help: 'the cases to analyse: a JSON array of cases (as in a trace), or an object with cases', group: 'input', commands: DEFINITION },
  { name: '--against', value: 'EARLIER.pipeline.js', kind: 'value', default: '', help: "the regression game: FILE's definition against its earlier version (a .js file, trace or session file); each changed step's fix is its earlier version, and the new failures are analysed (docs/ci.md)", group: 'gate', commands: ['blame'] },
  { name: '--gate', kind: 'switch', default: 'off', help: "with --against or compare: one verdict line first, exit 1 when the failure rate rose (interval above 0) or a step's mean blame rose by more than --gate-threshold (interval above it)", group: 'gate', commands: ['blame', 'compare'] },
  { name: '--gate-threshold', value: 'T', kind: 'value', default: String(DEFAULT_GATE_THRESHOLD), help: "the rise of a step's mean blame the gate tolerates, in the metric's units", group: 'gate', commands: ['blame', 'compare'] },
  { name: '--summary', value: 'FILE.md', kind: 'value', default: '', help: 'write the verdict and its table as GitHub-flavoured markdown (also appended to $GITHUB_STEP_SUMMARY when set)', group: 'gate', commands: ['blame', 'compare'] },
  { name: '--junit', value: 'FILE.xml', kind: 'value', default: '', help: 'write the verdict as a JUnit XML report: a test case for the failure rate and one per step', group: 'gate', commands: ['blame', 'compare'] },

  { name: '--repairs', kind: 'switch', default: 'off', help: "list each failure's minimal repairs (fix sets reaching --success with no proper subset that does) and the batch's causal consensus per step", group: 'repairs', commands: STUDY },
  { name: '--success', value: 'V', kind: 'value', default: "the metric's upper range, else 1", help: 'the value a repair must reach', group: 'repairs', commands: STUDY },
  { name: '--repair-size', value: 'K', kind: 'value', default: '3', help: 'largest fix set a sampled (mc) analysis searches for repairs; exact analyses search all', group: 'repairs', commands: STUDY },
  { name: '--pairs', value: 'FILE.jsonl', kind: 'value', default: '', help: "write training pairs (prompt, chosen, rejected, ...) for each step of each failure's first minimal repair", group: 'repairs', commands: STUDY },
  { name: '--audit', value: 'CREDIT.json', kind: 'value', default: '', help: "audit credit signals (built-in and an agentblame-credit file's) against the Shapley values", group: 'repairs', commands: STUDY },
  { name: '--judge-credit', value: 'RUBRIC', kind: 'value', default: '', help: "add an LLM judge's credit to the audit: one yes/no request per step of each failure (uses --model and the model flags, cached)", group: 'repairs', commands: STUDY },
  { name: '--save-credit', value: 'FILE', kind: 'value', default: '', help: 'write the audited given and judged signals as an agentblame-credit file', group: 'repairs', commands: STUDY },

  { name: '--run', value: 'ID', kind: 'list', default: 'every run', help: 'only this run (repeatable)', group: 'replay', commands: ['replay'] },
  { name: '--players', value: PLAYERS_KINDS.join('|'), kind: 'value', default: 'steps', help: 'steps (each turn), turns (a model turn with the tool calls it made) or agents (every turn of an agent together)', group: 'replay', commands: ['replay'] },
  { name: '--fix', value: 'TURN=KIND[:ARG]', kind: 'list', default: 'repair for every model turn', help: "a turn's intervention (TURN: its step index or name): resample, action:TEXT, observation:TEXT, context:system+=TEXT, context:drop=K, context:replace=K:TEXT, policy:ALIAS[@T], repair[:HINT]; several per turn", group: 'replay', commands: ['replay'] },
  { name: '--expect', value: 'TEXT|/REGEX/', kind: 'value', default: "Who&When's ground_truth", help: 'success = the final answer contains TEXT (whole words, case aside) or matches REGEX', group: 'replay', commands: ['replay'] },
  { name: '--judge', value: 'RUBRIC', kind: 'value', default: '', help: "success = a model's pass/fail verdict on the task and final answer", group: 'replay', commands: ['replay'] },
  { name: '--metric', value: 'FILE.js', kind: 'value', default: '', help: 'success = export default (run) => number, given { turns, final }, sandboxed', group: 'replay', commands: ['replay'] },
  { name: '--tools', value: 'FILE.js', kind: 'value', default: 'recorded results reused', help: 'export default { toolName: (args) => result }, sandboxed: runs a tool call that changed', group: 'replay', commands: ['replay'] },
  { name: '--contrast', value: 'N', kind: 'value', default: 'off', help: 'N replays per arm of the single-step contrast and the point of commitment (1 to 10000)', group: 'replay', commands: ['replay'] },
  { name: '--emit-definition', value: 'FILE.js', kind: 'value', default: '', help: 'write the generated replay definition (an ordinary one: edit it, analyse it like any other)', group: 'replay', commands: ['replay'] },
  { name: '--score', value: '[PREDICTIONS.json]', kind: 'optional-value', default: '', help: "score the replay's top-ranked player against the runs' labels (Who&When), beside the heuristics and a predictions file", group: 'replay', commands: ['replay'], takesNext: isPredictionsFile },

  { name: '--match', value: 'REGEX', kind: 'value', default: '', help: 'with a tool: only calls whose arguments match; for a call that makes no tool call, the decision is a reply whose text matches (required then)', group: 'why', commands: ['why'] },
  { name: '--run', value: 'ID', kind: 'value', default: 'the only run', help: 'the run, when the file holds several', group: 'why', commands: ['why'] },
  { name: '--runs', value: 'N', kind: 'value', default: `${WHY_DEFAULTS.runs} (check: the check file's)`, help: 'reruns per variant confirmed, and for the base rate and each fix (screening uses 2; 2 to 1000)', group: 'why', commands: ['why', 'check'] },
  { name: '--budget', value: 'CALLS', kind: 'value', default: String(WHY_DEFAULTS.budget), help: 'at most this many reruns for why (fixes add --runs per fix; 1 to 100000)', group: 'why', commands: ['why'] },
  { name: '--fill', value: 'TEXT', kind: 'value', default: JSON.stringify(WHY_DEFAULTS.fill), help: 'what stands in for a whole message or tool result removed', group: 'why', commands: ['why'] },
  { name: '--seed', value: 'S', kind: 'value', default: '1', help: "the world seed the reruns' seeds are drawn from", group: 'why', commands: ['why'] },
  { name: '--dry', kind: 'switch', default: 'off', help: 'rank suspects by the wording they share with the decision, no model call', group: 'why', commands: ['why'] },
  { name: '--fixes', kind: 'switch', default: 'off', help: 'try the fixes after why, on the exact context that failed, each rerun --runs times', group: 'why', commands: ['why'] },
  { name: '--write-check', value: 'FILE.json', kind: 'value', default: '', help: 'write a check file holding the best passing fix (none: the recorded context as it is)', group: 'why', commands: ['why'] },
  { name: '--write-test', value: 'FILE', kind: 'value', default: '', help: 'also write a node:test file that runs the check (with --write-check)', group: 'why', commands: ['why'] },
  { name: '--tool-results', value: 'tool|user', kind: 'value', default: 'tool', help: 'send tool results as tool messages, or as user messages headed "Tool result (NAME):" (hosted APIs that refuse tool messages without a structured call)', group: 'why', commands: ['why', 'check'] },

  { name: '--score', value: 'PREDICTIONS.json', kind: 'value', default: '', help: "score a predictions file and the no-replay baselines against the runs' labels (Who&When)", group: 'inspect', commands: ['inspect'] },

  { name: '--recorded-at', value: 'DATE-TIME', kind: 'value', default: "the runs' own times, else the input file's date", help: 'when the cases were recorded (ISO 8601, e.g. 2026-03-02T09:00:00Z), kept in a saved session for trends', group: 'trends', commands: STUDY },
  { name: '--pipeline-version', value: 'LABEL', kind: 'value', default: 'def: and a hash of the definition', help: "the pipeline's version label, kept in a saved session for trends (--version prints the program's version)", group: 'trends', commands: STUDY },
  { name: '--tag', value: 'TAG', kind: 'list', default: 'none', help: 'a free tag kept in a saved session for trends: prod, or KEY=VALUE such as model=gpt-4.1 (repeatable, each key once)', group: 'trends', commands: STUDY },
  { name: '--by', value: 'week|day|month|version|tag:KEY', kind: 'value', default: 'week', help: 'the periods: calendar days, weeks (from Monday, UTC) or months of recording, pipeline versions, or the values of a tag', group: 'trends', commands: ['trend'] },
  { name: '--name', value: 'PIPELINE', kind: 'value', default: 'the only pipeline', help: 'the pipeline whose studies to show, when the files hold several', group: 'trends', commands: ['trend'] },
  { name: '--tag', value: 'TAG', kind: 'value', default: 'every study', help: 'only studies with this tag (KEY=VALUE, or a bare KEY for every value)', group: 'trends', commands: ['trend'] },
  { name: '--summary', kind: 'switch', default: 'tables', help: 'print a markdown block (for a pull request or a wiki page) instead of the tables', group: 'trends', commands: ['trend'] },
  { name: '--html', value: 'FILE', kind: 'value', default: '', help: 'also write a self-contained page: the headline, the chart and the table', group: 'trends', commands: ['trend'] },
  { name: '--delta', value: 'D', kind: 'value', default: '0.05', help: 'intervals at confidence 1 - D (a number above 0 below 1)', group: 'trends', commands: ['trend'] },
  { name: '--digest-cache', value: 'DIR', kind: 'value', default: 'node_modules/.cache/agentblame/trend-digests', help: "where each file's digest is kept, by the SHA-256 of its bytes ($AGENTBLAME_CACHE_DIR/trend-digests when set)", group: 'trends', commands: ['trend'] },
  { name: '--no-digest-cache', kind: 'switch', default: 'off', help: 'read every file afresh and keep nothing', group: 'trends', commands: ['trend'] },

  { name: '--help', kind: 'switch', default: '', help: 'print this help (with a command: that command\'s flags) and exit', group: 'general', commands: [...COMMAND_NAMES] },
  { name: '--version', kind: 'switch', default: '', help: 'print the version and exit', group: 'general', commands: [...COMMAND_NAMES] },
];

/** The whole table: the schema's setting flags first, then the others. */
export const FLAGS: readonly FlagSpec[] = [...settingFlags(), ...OWN_FLAGS];

/** The flags one command takes, by name. */
export function flagsOf(command: CommandName): ReadonlyMap<string, FlagSpec> {
  return new Map(FLAGS.filter((f) => f.commands.includes(command)).map((f) => [f.name, f]));
}

/** The commands that take a flag of this name (empty: no command does). */
export function commandsTaking(name: string): CommandName[] {
  return COMMAND_NAMES.filter((c) => FLAGS.some((f) => f.name === name && f.commands.includes(c)));
}
