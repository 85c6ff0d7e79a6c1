/**
 * The values each choice among the analysis settings can take, with the words the page and the
 * report use for them: the one list the command's parser, the session validator, the settings
 * panel and the report read (estimators have their own registry, shapley/registry.ts). Each is a
 * record over its type, so adding a value to a type without wording it here fails to compile.
 */
export type Mode = 'recorded' | 'posterior' | 'prior';
export type Method = 'exact' | 'mc';
export type StopRule = 'top1' | 'ranking' | 'width' | 'budget';
export type Radius = 'betting' | 'bernstein' | 'hoeffding';
export type BatchBound = 'normal' | 'bernstein' | 'anytime';
/** How a batch stop decides (engine/batch.ts BatchStopper): the plain top-step stop, or the bandit stop. */
export type BatchStopRule = 'top' | 'bandit';

export interface SettingChoice {
  /** The settings panel's option text: short enough to show whole in the panel's dropdowns. */
  label: string;
  /** The report's description of the chosen value. */
  description: string;
}

export const MODE_CHOICES: Readonly<Record<Mode, SettingChoice>> = {
  recorded: { label: "Recorded (the failure's noise)", description: 'recorded: each failure is replayed with its own recorded noise (exact, deterministic)' },
  posterior: { label: 'Posterior (abducted noise)', description: 'posterior: noise abducted from the observed choices (counterfactual)' },
  prior: { label: 'Prior (fresh noise)', description: 'prior: fresh noise (interventional: how often a fix helps on a new run, not why this run failed)' },
};

/** 'auto' is worded by the page and the report, which know the step count. */
export const METHOD_CHOICES: Readonly<Record<Method | 'auto', SettingChoice>> = {
  exact: { label: 'Exact (all coalitions)', description: 'exact Shapley over every coalition' },
  mc: { label: 'Monte Carlo (sampled)', description: 'Monte Carlo sampling' },
  auto: { label: 'Auto', description: 'auto: exact when its 2^n queries are within what Monte Carlo may ask at its cap (up to 17 steps at 10 000 permutations), else Monte Carlo' },
};

export const STOP_RULE_CHOICES: Readonly<Record<StopRule, SettingChoice>> = {
  top1: { label: 'the top step separates', description: 'top1: stop once the top step’s interval is apart from all others' },
  ranking: { label: 'the whole ranking separates', description: 'ranking: stop once every adjacent pair of steps is apart' },
  // {width} is the setting's width.
  width: { label: 'every interval is narrow', description: 'width: stop once every interval radius is at most {width}' },
  budget: { label: 'the budget is spent', description: 'budget: run until the step-cost budget is spent' },
};

export const RADIUS_CHOICES: Readonly<Record<Radius, SettingChoice>> = {
  betting: { label: 'Betting (anytime-valid)', description: 'betting confidence sequences, anytime-valid' },
  bernstein: { label: 'Empirical Bernstein', description: 'empirical Bernstein intervals' },
  hoeffding: { label: 'Hoeffding', description: 'Hoeffding intervals' },
};

export const BATCH_BOUND_CHOICES: Readonly<Record<BatchBound, SettingChoice>> = {
  normal: { label: 'Normal (asymptotic)', description: 'normal (asymptotic)' },
  bernstein: { label: 'Empirical Bernstein', description: 'empirical Bernstein' },
  anytime: { label: 'Anytime-valid (betting)', description: 'anytime-valid (betting confidence sequence)' },
};

export const BATCH_STOP_RULE_CHOICES: Readonly<Record<BatchStopRule, SettingChoice>> = {
  top: { label: 'once the top step separates', description: 'stopped once the top step separated from every other' },
  bandit: {
    label: 'bandit: fewer step runs',
    description: 'bandit stop: step runs shared across cases, the top step contested pairwise with bolder anytime-valid bets',
  },
};

/** The values of a choice, in the order they are worded above. */
function valuesOf<T extends string>(choices: Readonly<Record<T, SettingChoice>>): readonly T[] {
  return Object.freeze(Object.keys(choices) as T[]);
}

export const MODES = valuesOf(MODE_CHOICES);
export const METHODS = valuesOf(METHOD_CHOICES);
export const STOP_RULES = valuesOf(STOP_RULE_CHOICES);
export const RADII = valuesOf(RADIUS_CHOICES);
export const BATCH_BOUNDS = valuesOf(BATCH_BOUND_CHOICES);
export const BATCH_STOP_RULES = valuesOf(BATCH_STOP_RULE_CHOICES);
