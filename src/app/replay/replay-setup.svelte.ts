/**
 * The "Blame this run" setup of one recorded run: who the players are (steps, turns or agents),
 * the fix of each turn (one intervention a line; blank is the default: `repair` for a model turn,
 * none for a tool turn), how success is decided, and the model ids. From them comes the replay
 * definition (src/replay), regenerated as they change; the panel shows its turns, players and
 * problems, and opening the study takes the definition as it stands.
 */
import { buildReplay, recordedMeetsOutcome, unstubbedToolTurns, InterventionError, parseIntervention, ReplayPlanError, EmbeddedFileError, type EmbeddedFile, type FixSpec, type PlayersKind, type ReplayDefinition, type ReplayRunData } from '../../replay/index.ts';
import type { RecordedRun } from '../../runs/index.ts';
import type { ModelParams } from '../../engine/model-params.ts';
import { parseOutcome, type OutcomeKind } from './parse-outcome.ts';
import type { KeptSetup } from './kept-setups.ts';

/** The definition to open, or the first thing that stops it, in words for the panel. */
export type SetupOutcome = { ok: true; definition: ReplayDefinition } | { ok: false; problem: string };

export class ReplaySetup {
  players = $state<PlayersKind>('steps');
  /** Fix text by the turn's recorded step index: one intervention a line; blank for the default. */
  fixes = $state<Record<number, string>>({});
  outcomeKind = $state<OutcomeKind>('expect');
  expect = $state('');
  rubric = $state('');
  metric = $state.raw<{ fileName: string; source: string } | null>(null);
  /** A tool-stubs file and the tool names it stubs (read in the sandbox): changed calls to them run the stub. */
  tools = $state.raw<{ file: EmbeddedFile; names: ReadonlySet<string> } | null>(null);
  /** Why the last tool-stubs file chosen could not be used ('' when none). */
  toolsProblem = $state('');
  /** Model ids by alias (the study's `models` setting); undefined leaves the definition's own. */
  models = $state.raw<Record<string, string> | undefined>(undefined);
  /** Extra endpoint parameters by alias (the study's `modelParams`: the Model panel's "Most tokens per answer"); undefined leaves the definition's own. */
  modelParams = $state.raw<ModelParams | undefined>(undefined);

  /** `fileName`: the file the run came from (the definition's header names it). */
  constructor(
    readonly run: RecordedRun,
    readonly fileName: string,
  ) {}

  /** The problem with each turn's fix text, by step index (only turns with one). */
  fixProblems: Record<number, string> = $derived.by(() => {
    const out: Record<number, string> = {};
    for (const [step, text] of Object.entries(this.fixes)) {
      for (const line of fixLines(text)) {
        try {
          const fix = parseIntervention(line);
          // As the command refuses --fix with an alias no --model maps: every case replaying it would fail.
          if (fix.kind === 'policy' && fix.alias !== 'default' && !Object.hasOwn(this.models ?? {}, fix.alias)) {
            out[Number(step)] = `"${line}": no model is given for the alias "${fix.alias}": map it in the Model panel's Other aliases (${fix.alias}=MODEL_ID)`;
            break;
          }
        } catch (error) {
          if (!(error instanceof InterventionError)) throw error;
          out[Number(step)] = error.message;
          break;
        }
      }
    }
    return out;
  });

  /** The fixes as the replay takes them (`TURN=KIND[:ARG]`), the unreadable ones left out. */
  fixSpecs: FixSpec[] = $derived.by(() =>
    Object.entries(this.fixes)
      .filter(([step]) => this.fixProblems[Number(step)] === undefined)
      .flatMap(([step, text]) => fixLines(text).map((fix) => ({ turn: step, fix }))),
  );

  /** The outcome the replay is judged by, or what is missing. */
  outcome = $derived.by(() => parseOutcome({ kind: this.outcomeKind, expect: this.expect, rubric: this.rubric, metric: this.metric }, this.run.expected));

  /** The definition for the current choices, or the first problem (a fix, the outcome, the run itself). */
  result: SetupOutcome = $derived.by(() => {
    const fixProblem = Object.entries(this.fixProblems)[0];
    if (fixProblem) return { ok: false, problem: `Fix of step ${fixProblem[0]}: ${fixProblem[1]}` };
    if (!this.outcome.ok) return { ok: false, problem: this.outcome.problem };
    return build(this.run, this.fileName, this.players, this.fixSpecs, this.outcome.outcome, this.tools);
  });

  /**
   * The turns and players to show, also while the outcome or a fix has a problem (the turns do
   * not depend on the outcome; fixes that cannot be read are left out). Null when the run has
   * nothing to replay, with the reason in `result`.
   */
  preview: ReplayRunData | null = $derived.by(() => {
    if (this.result.ok) return this.result.definition.runs[0];
    const placeholder = { kind: 'expect', text: '' } as const;
    const withFixes = build(this.run, this.fileName, this.players, this.fixSpecs, placeholder, this.tools);
    if (withFixes.ok) return withFixes.definition.runs[0];
    const plain = build(this.run, this.fileName, this.players, [], placeholder);
    return plain.ok ? plain.definition.runs[0] : null;
  });

  /** The recorded run already meets the outcome (as far as the page can tell without a model): Blame is off. */
  alreadyMet: boolean = $derived.by(() => {
    const plan = this.preview;
    return plan !== null && this.outcome.ok && recordedMeetsOutcome(plan, this.outcome.outcome) === true;
  });

  /**
   * What Blame would do that the user may not expect, said before it is pressed: a tool call that
   * can change with no stub (its recorded result reused), and a recorded run that already meets
   * the outcome (nothing to blame).
   */
  warnings: string[] = $derived.by(() => {
    const plan = this.preview;
    if (!plan) return [];
    const out: string[] = [];
    if (this.alreadyMet) out.push('The recorded run already meets the outcome: there is nothing to blame, so Blame is off and no requests are sent. Check the outcome (a failure is what gets blamed).');
    const stubbed = this.tools?.names ?? new Set<string>();
    for (const { step, tool } of unstubbedToolTurns(plan, stubbed)) {
      out.push(`Step ${step} calls ${tool}: when its call changes, its recorded result will be reused (flagged in the results); give a stub for ${tool} in Tool stubs.`);
    }
    return out;
  });

  /** The key its run's setup is kept under in this browser: the run's file and id. */
  get keptKey(): string {
    return `${this.fileName} ${this.run.id}`;
  }

  /** What is kept in this browser of the setup (plain data; reading it tracks every field). */
  kept(savedAt: string): KeptSetup {
    return {
      players: this.players,
      fixes: { ...this.fixes },
      outcomeKind: this.outcomeKind,
      expect: this.expect,
      rubric: this.rubric,
      metric: this.metric,
      tools: this.tools ? { fileName: this.tools.file.fileName, source: this.tools.file.source, names: [...this.tools.names] } : null,
      ...(this.models !== undefined && { models: this.models }),
      ...(this.modelParams !== undefined && { modelParams: this.modelParams }),
      savedAt,
    };
  }

  /** Takes a kept setup's fields (a reload of `#blame/<run>`). */
  restore(kept: KeptSetup): void {
    this.players = kept.players;
    this.fixes = { ...kept.fixes };
    this.outcomeKind = kept.outcomeKind;
    this.expect = kept.expect;
    this.rubric = kept.rubric;
    this.metric = kept.metric;
    this.tools = kept.tools ? { file: { fileName: kept.tools.fileName, source: kept.tools.source }, names: new Set(kept.tools.names) } : null;
    if (kept.models !== undefined) this.models = kept.models;
    if (kept.modelParams !== undefined) this.modelParams = kept.modelParams;
  }

  setFix(step: number, text: string): void {
    const next = { ...this.fixes };
    if (text.trim() === '') delete next[step];
    else next[step] = text;
    this.fixes = next;
  }
}

/** One intervention a line, blank lines ignored. */
export function fixLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function build(run: RecordedRun, fileName: string, players: PlayersKind, fixes: readonly FixSpec[], outcome: Parameters<typeof buildReplay>[1]['outcome'], tools: ReplaySetup['tools'] = null): SetupOutcome {
  try {
    return { ok: true, definition: buildReplay([run], { players, fixes, outcome, origin: fileName, ...(tools && { tools }) }) };
  } catch (error) {
    if (error instanceof ReplayPlanError || error instanceof EmbeddedFileError) return { ok: false, problem: error.message.replace(/^--fix /, 'Fix ') };
    throw error;
  }
}
