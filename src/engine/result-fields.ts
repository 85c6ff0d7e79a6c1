/**
 * Every field a case result may carry, listed once. The result types (`CaseResult` in types.ts),
 * the session validator (session/validate-result.ts: a field not listed here is refused), the
 * command's `--json` (cli/json-output.ts) and its per-step tables (cli/tables.ts) are derived from
 * this table; the builders (case-result.ts) are typed by it. Adding a field is adding a row here
 * (and, for a new kind of value, its type in types.ts `ResultValueTypes` and its reader in the
 * validator, both of which the compiler asks for).
 *
 * Row order is the order `--json` prints the fields in.
 */

/** The kinds of value a field holds; types.ts gives each its TypeScript type. */
export type ResultValueKind =
  | 'caseId'
  | 'players'
  | 'method'
  | 'flag'
  | 'text'
  /** v(S): finite, or NaN on a case that could not be analysed (JSON writes it as null). */
  | 'measure'
  /** A finite number >= 0 (costs, counts). */
  | 'count'
  | 'estimator'
  /** A number per player, keys among the case's players. */
  | 'perPlayer'
  /** An interval [low, high] per player, keys among the case's players. */
  | 'intervalPerPlayer'
  /** Player names, each one of the case's players. */
  | 'playerList'
  /** A player name or null. */
  | 'stepOrNull'
  | 'stopReason'
  /** Step outputs by step name: any JSON data. */
  | 'outputs'
  /** Step outputs by step name, per player (keys among the case's players). */
  | 'outputsPerPlayer'
  | 'notes'
  | 'requestKeys'
  | 'usage'
  | 'coalitions'
  | 'history'
  | 'interactions'
  | 'repairs'
  | 'repairSearch'
  /** Parts of an attributed analysis the budget stopped (see BudgetSkippedPart). */
  | 'budgetSkipped';

/** The parts of an attributed analysis a spent budget can leave out (field `notComputed`), in the order they are computed. */
export const BUDGET_SKIPPED_PARTS = ['interactions', 'fixAlone', 'leaveOneOut'] as const;
export type BudgetSkippedPart = (typeof BUDGET_SKIPPED_PARTS)[number];
/** How outputs (text, reports, the page) name each part a budget left out. */
export const BUDGET_SKIPPED_LABELS: Readonly<Record<BudgetSkippedPart, string>> = { interactions: 'pair interactions', fixAlone: 'fix-alone', leaveOneOut: 'leave-one-out' };
/** The words every output shows where a budget left a part out. */
export const NOT_COMPUTED_WITHIN_BUDGET = 'not computed within the budget';

/** Which results carry a field: every kind, only errors, or only attributed failures. */
export type ResultFieldOn = 'all' | 'error' | 'attributed';

export interface ResultFieldSpec {
  readonly on: ResultFieldOn;
  /** Whether a result of those kinds may lack it. */
  readonly optional: boolean;
  readonly value: ResultValueKind;
  /**
   * In the command's `--json`: on every result that carries it, on all but errors, or never
   * (drill-down data and bookkeeping stay out of the command's output).
   */
  readonly json: 'always' | 'unlessError' | 'never';
  /** What `--json` prints for it when a result that may carry it lacks it. */
  readonly jsonAbsent?: null | 0;
  /**
   * Per-case detail (step outputs, coalition tables, checkpoints): only the drill-down of a page,
   * a session or a report reads it, so the command drops it as each case arrives unless it saves one.
   */
  readonly drillDown?: true;
  /** A column of the command's per-step table: its title and place (values per player only). */
  readonly column?: { readonly title: string; readonly at: number };
}

export const RESULT_FIELDS = {
  id: { on: 'all', optional: false, value: 'caseId', json: 'always' },
  /** The steps (or a game's players) whose fixes the case's blame is split among. */
  players: { on: 'all', optional: false, value: 'players', json: 'always' },
  /** The method that ran, never 'auto'. */
  method: { on: 'all', optional: false, value: 'method', json: 'always' },
  /** Whether the factual run fell below the threshold (always true for an error). */
  failed: { on: 'all', optional: false, value: 'flag', json: 'always' },
  /** Names the case, the step and the problem of a case that could not be analysed. */
  error: { on: 'error', optional: false, value: 'text', json: 'always' },
  /** v(no fix); NaN when the case could not be analysed. */
  vEmpty: { on: 'all', optional: false, value: 'measure', json: 'unlessError' },
  /** v(all fixes); NaN when the case could not be analysed. */
  vAll: { on: 'all', optional: false, value: 'measure', json: 'unlessError' },
  shapley: { on: 'attributed', optional: false, value: 'perPlayer', json: 'unlessError', column: { title: 'Shapley', at: 3 } },
  /** Simultaneous intervals (Monte Carlo only). */
  ci: { on: 'attributed', optional: true, value: 'intervalPerPlayer', json: 'unlessError', column: { title: 'interval', at: 4 } },
  /** v({i}) - v(empty) per step; absent when the budget ran out before its n coalitions (listed in `notComputed`). */
  fixAlone: { on: 'attributed', optional: true, value: 'perPlayer', json: 'unlessError', jsonAbsent: null, column: { title: 'fix-alone', at: 1 } },
  /** v(all) - v(all but i) per step; absent when the budget ran out before its n coalitions (listed in `notComputed`). */
  leaveOneOut: { on: 'attributed', optional: true, value: 'perPlayer', json: 'unlessError', jsonAbsent: null, column: { title: 'leave-1-out', at: 2 } },
  /** The last step whose output differs between the factual and the all-fixed run (null for game tables). */
  lastTouch: { on: 'attributed', optional: true, value: 'stepOrNull', json: 'unlessError', jsonAbsent: null },
  cost: { on: 'all', optional: false, value: 'count', json: 'unlessError' },
  /** Distinct coalitions evaluated. */
  evaluations: { on: 'all', optional: false, value: 'count', json: 'unlessError' },
  /** v(S) values the Shapley estimator asked for, repeats included (absent in sessions saved before it was counted). */
  queries: { on: 'all', optional: true, value: 'count', json: 'unlessError', jsonAbsent: 0 },
  permutations: { on: 'all', optional: false, value: 'count', json: 'unlessError' },
  /** The Monte Carlo estimator that produced the values (Monte Carlo results only). */
  estimator: { on: 'all', optional: true, value: 'estimator', json: 'unlessError' },
  stopReason: { on: 'attributed', optional: false, value: 'stopReason', json: 'unlessError' },
  /** Whether some coalition of fixes brings the case to the threshold. */
  fixable: { on: 'attributed', optional: false, value: 'flag', json: 'unlessError' },
  /** Pairwise Shapley interactions, when the settings ask for them: exact up to 12 steps, sampled above. */
  interactions: { on: 'attributed', optional: true, value: 'interactions', json: 'unlessError' },
  /**
   * What a Monte Carlo analysis under a budget (`--budget`) did not compute because the budget was
   * spent: the baselines, the interactions (docs/method.md, "Budget"). Absent when nothing was skipped.
   */
  notComputed: { on: 'attributed', optional: true, value: 'budgetSkipped', json: 'unlessError' },
  /** Differences between the recorded outputs/score and the replay. */
  mismatches: { on: 'all', optional: true, value: 'notes', json: 'unlessError' },
  /** Model requests of this case (model steps only): sent, answered from the cache, tokens. */
  usage: { on: 'all', optional: true, value: 'usage', json: 'unlessError' },
  /** Minimal repairs when the settings ask for them: smallest first, then cheapest. */
  repairs: { on: 'attributed', optional: true, value: 'repairs', json: 'unlessError' },
  /** How the repairs were searched: the success level, the largest set size, whether every set was. */
  repairSearch: { on: 'attributed', optional: true, value: 'repairSearch', json: 'unlessError' },
  /**
   * Steps whose fix alone brings the case to the threshold, in pipeline order (absent in sessions
   * saved before it was recorded; the batch then judges v(empty) + fixAlone against the threshold).
   */
  resolvedAlone: { on: 'attributed', optional: true, value: 'playerList', json: 'never' },
  /** Factual outputs per step (first world). */
  factualOutputs: { on: 'all', optional: true, value: 'outputs', json: 'never', drillDown: true },
  /** All-fixed outputs per step (first world). */
  fixedOutputs: { on: 'attributed', optional: true, value: 'outputs', json: 'never', drillDown: true },
  /** Outputs per step (first world) with the first listed repair applied, for training pairs. */
  repairedOutputs: { on: 'attributed', optional: true, value: 'outputs', json: 'never', drillDown: true },
  /**
   * Outputs per step (first world) with each step's fix alone, by player: what the Replay view
   * shows beside the record. Only with the fix-alone baseline and at most MAX_ALONE_OUTPUT_PLAYERS
   * players; kept within MAX_KEPT_ALONE_OUTPUT_CHARS a case (kept-outputs.ts).
   */
  aloneOutputs: { on: 'attributed', optional: true, value: 'outputsPerPlayer', json: 'never', drillDown: true },
  /** v(S) of the coalitions evaluated, when n <= 10 (drill-down). */
  coalitions: { on: 'attributed', optional: true, value: 'coalitions', json: 'never', drillDown: true },
  /** Estimates and intervals at each checkpoint (Monte Carlo only). */
  history: { on: 'attributed', optional: true, value: 'history', json: 'never', drillDown: true },
  /**
   * Cache keys of the model responses the analysis used (model steps), so a session or report can
   * carry exactly the responses it needs to be re-analysed without a model.
   */
  modelKeys: { on: 'all', optional: true, value: 'requestKeys', json: 'never' },
} as const satisfies Readonly<Record<string, ResultFieldSpec>>;

export type ResultFieldTable = typeof RESULT_FIELDS;
export type ResultFieldName = keyof ResultFieldTable;

/** The field names, in the table's order. */
export const RESULT_FIELD_NAMES: readonly string[] = Object.keys(RESULT_FIELDS);

/** Whether `name` is a result field (an own key of the table, so `__proto__` and `toString` are not). */
export function isResultField(name: string): name is ResultFieldName {
  return Object.hasOwn(RESULT_FIELDS, name);
}

type ResultKind = 'error' | 'passed' | 'attributed';

function fieldsCarriedBy(kind: ResultKind): readonly ResultFieldName[] {
  const carried = (on: ResultFieldOn) => on === 'all' || (kind === 'error' ? on === 'error' : kind === 'attributed' && on === 'attributed');
  return RESULT_FIELD_NAMES.filter(isResultField).filter((name) => carried(RESULT_FIELDS[name].on));
}

/** Worked out once: the command prints and the validator reads thousands of results. */
const FIELDS_OF_KIND: Readonly<Record<ResultKind, readonly ResultFieldName[]>> = {
  error: fieldsCarriedBy('error'),
  passed: fieldsCarriedBy('passed'),
  attributed: fieldsCarriedBy('attributed'),
};

/** The fields a result of this kind may carry, in the table's order. */
export function resultFieldsOf(kind: ResultKind): readonly ResultFieldName[] {
  return FIELDS_OF_KIND[kind];
}

type PerPlayerKind = 'perPlayer' | 'intervalPerPlayer';

/** The fields holding one number or interval per player (the per-step table's columns, the finite checks). */
export type PerPlayerField = { [K in ResultFieldName]: ResultFieldTable[K]['value'] extends PerPlayerKind ? K : never }[ResultFieldName];

/** Whether a field holds one number or interval per player. */
export function isPerPlayerField(name: ResultFieldName): name is PerPlayerField {
  const kind: ResultValueKind = RESULT_FIELDS[name].value;
  return kind === 'perPlayer' || kind === 'intervalPerPlayer';
}

/** The per-player fields, in the table's order. */
export const PER_PLAYER_FIELDS: readonly PerPlayerField[] = RESULT_FIELD_NAMES.filter(isResultField).filter(isPerPlayerField);
